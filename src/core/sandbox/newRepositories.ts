import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isGone } from '../goneErrors';
import { isPlaceholder } from './placeholders';
import { skippedFolders } from './protectedLayout';

/** Most folder entries looked at per workspace folder. */
const maxEntries = 50_000;

/** Every `.git` folder under the folders (within a bounded walk, skipping dependency and build folders). */
export async function gitFolders(folders: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const folder of folders) {
    let budget = maxEntries;
    const queue = [folder];
    while (queue.length > 0 && budget > 0) {
      const dir = queue.shift() as string;
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (isGone(err)) continue;
        throw err;
      }
      for (const entry of entries) {
        if (--budget <= 0 || !entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        // The empty placeholder holding a missing root .git is no repository.
        if (isPlaceholder(path)) continue;
        if (entry.name === '.git') found.add(path);
        else if (!skippedFolders.has(entry.name)) queue.push(path);
      }
    }
  }
  return found;
}

/**
 * What to tell the person about repositories a sandboxed command created: their config and
 * hooks run code when git is used there outside the sandbox (VS Code's git extension opens
 * nested repositories on its own). Undefined when there are none.
 */
export function newRepositoriesNote(before: ReadonlySet<string>, after: ReadonlySet<string>, display: (path: string) => string): string | undefined {
  const created = [...after].filter((p) => !before.has(p));
  if (created.length === 0) return undefined;
  return (
    `The command created the git repositor${created.length === 1 ? 'y' : 'ies'} ${created.map(display).join(', ')}. ` +
    "A repository's config and hooks run code when git is used there outside Keel's sandbox (VS Code's git extension does so on its own): the person should review them."
  );
}
