import { readdir, readFile } from 'node:fs/promises';
import { stampOf } from './fileStamps';
import type { Stamp } from './fileStamps';

/**
 * File texts and folder listings kept while their stamp (mtime, size) holds, so repeated
 * gathering costs one stat per file instead of a read.
 */
export class FileTextCache {
  private readonly texts = new Map<string, { stamp: Stamp; text: string }>();
  private readonly listings = new Map<string, { stamp: Stamp; names: string[] }>();

  /** The file's text, or undefined when it does not exist (or is a folder). */
  async text(path: string): Promise<string | undefined> {
    const stamp = await stampOf(path);
    if (stamp === 'missing' || stamp.endsWith(':d')) {
      this.texts.delete(path);
      return undefined;
    }
    const hit = this.texts.get(path);
    if (hit && hit.stamp === stamp) return hit.text;
    const text = await readFile(path, 'utf8');
    this.texts.set(path, { stamp, text });
    return text;
  }

  /** Names in a folder, or [] when it does not exist. */
  async names(dir: string): Promise<string[]> {
    const stamp = await stampOf(dir);
    if (stamp === 'missing' || !stamp.endsWith(':d')) {
      this.listings.delete(dir);
      return [];
    }
    const hit = this.listings.get(dir);
    if (hit && hit.stamp === stamp) return hit.names;
    const names = await readdir(dir);
    this.listings.set(dir, { stamp, names });
    return names;
  }

  clear(): void {
    this.texts.clear();
    this.listings.clear();
  }
}
