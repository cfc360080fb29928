import { lstat, mkdir, readdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LayoutPath } from './sandboxTypes';

/**
 * Empty files and folders made where a protected path is missing, so bubblewrap has a
 * mount point to hold read-only. They are removed again when the last sandboxed process of
 * this Keel that used them has exited (removing a mount point in use would unmount it in
 * that process's namespace and lift the protection).
 */
const users = new Map<string, number>();
/** Placeholders (and folders made for them) this Keel created, innermost last. */
const created = new Map<string, 'dir' | 'file'>();

/** Makes the placeholders that are still missing; the returned release must be called once. */
export async function holdPlaceholders(paths: LayoutPath[]): Promise<() => Promise<void>> {
  const held: string[] = [];
  for (const p of paths) {
    await ensure(p);
    users.set(p.path, (users.get(p.path) ?? 0) + 1);
    held.push(p.path);
  }
  return async () => {
    const free: string[] = [];
    for (const path of held) {
      const n = (users.get(path) ?? 1) - 1;
      if (n > 0) users.set(path, n);
      else {
        users.delete(path);
        free.push(path);
      }
    }
    // Innermost first, so a folder made for a placeholder is empty when its turn comes.
    for (const path of free.sort((a, b) => b.length - a.length)) await removeIfOurs(path);
  };
}

async function ensure(p: LayoutPath): Promise<void> {
  const parent = dirname(p.path);
  if (!(await present(parent))) {
    // Parents (`.github` for `.github/instructions`) are ours too, removed with the placeholder.
    await ensure({ path: parent, kind: 'dir' });
  }
  try {
    if (p.kind === 'dir') await mkdir(p.path);
    else await writeFile(p.path, '', { flag: 'wx' });
    created.set(p.path, p.kind);
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) throw err;
  }
}

async function removeIfOurs(path: string): Promise<void> {
  const kind = created.get(path);
  if (!kind || (users.get(path) ?? 0) > 0) return;
  try {
    if (kind === 'dir') {
      if ((await readdir(path)).length > 0) return;
      await rmdir(path);
    } else {
      if ((await lstat(path)).size > 0) return;
      await unlink(path);
    }
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTEMPTY'))) throw err;
  }
  created.delete(path);
  const parent = dirname(path);
  if (created.has(parent) && ![...users.keys()].some((u) => u.startsWith(`${parent}/`))) await removeIfOurs(parent);
}

async function present(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return false;
    throw err;
  }
}
