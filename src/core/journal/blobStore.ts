import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../errorCode';
import { sha256 } from '../sha256';

export type PutOutcome = { stored: true; hash: string } | { stored: false; hash: string; reason: string };

/**
 * File contents kept by hash in one folder (`<sessions>/<id>.blobs/<sha256>`): each version
 * of a file is stored once however often it comes back, and the folder never grows past
 * `capBytes`.
 */
export class BlobStore {
  private used: number | undefined;

  constructor(
    readonly dir: string,
    readonly capBytes: number,
  ) {}

  /** Keeps `bytes` unless the same content is already there or the cap would be passed. */
  async put(bytes: Uint8Array): Promise<PutOutcome> {
    const hash = sha256(bytes);
    const path = join(this.dir, hash);
    if (await exists(path)) return { stored: true, hash };
    const used = await this.usedBytes();
    if (used + bytes.length > this.capBytes) {
      return { stored: false, hash, reason: `the journal of this session holds ${formatMegabytes(used)} of its ${formatMegabytes(this.capBytes)} limit` };
    }
    await mkdir(this.dir, { recursive: true });
    // Written under a temporary name and renamed, so a blob is never seen half written.
    const temp = join(this.dir, `.${hash}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temp, bytes, { flag: 'wx' });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    this.used = used + bytes.length;
    return { stored: true, hash };
  }

  /** The content stored under `hash`; throws when it is missing or no longer matches its hash. */
  async get(hash: string): Promise<Buffer> {
    const bytes = await readFile(join(this.dir, hash));
    if (sha256(bytes) !== hash) throw new Error(`the journal's copy ${hash.slice(0, 12)}… is damaged (its content no longer matches its hash)`);
    return bytes;
  }

  async usedBytes(): Promise<number> {
    if (this.used !== undefined) return this.used;
    let total = 0;
    try {
      for (const name of await readdir(this.dir)) {
        if (name.startsWith('.')) continue;
        total += (await stat(join(this.dir, name))).size;
      }
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') throw err;
    }
    this.used = total;
    return total;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return false;
    throw err;
  }
}

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB`;
}
