import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
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
/**
 * How long unused placeholders stay: commands often come in bursts, and making and removing
 * them for each would cost more than the sandbox itself.
 */
export const placeholderLingerMs = 1_500;
let sweepTimer: NodeJS.Timeout | undefined;
let exitHook = false;
let sweeping: Promise<void> = Promise.resolve();

/** Makes the placeholders that are still missing; the returned release must be called once. */
export async function holdPlaceholders(paths: LayoutPath[]): Promise<() => Promise<void>> {
  await sweeping;
  clearTimeout(sweepTimer);
  for (const p of paths) users.set(p.path, (users.get(p.path) ?? 0) + 1);
  try {
    for (const p of paths) if (!created.has(p.path)) await ensure(p);
  } catch (err) {
    release(paths.map((p) => p.path));
    throw err;
  }
  return async () => release(paths.map((p) => p.path));
}

/** Whether the path is one of this Keel's placeholders (it stands for a missing protected path). */
export function isPlaceholder(path: string): boolean {
  return created.has(path);
}

/** Removes the placeholders no run uses any more, now (tests, and the end of a Keel process). */
export async function sweepPlaceholders(): Promise<void> {
  clearTimeout(sweepTimer);
  sweepTimer = undefined;
  const free = [...created.keys()].filter((path) => (users.get(path) ?? 0) === 0);
  // Innermost first, so a folder made for a placeholder is empty when its turn comes.
  for (const path of free.sort((a, b) => b.length - a.length)) await removeIfOurs(path);
}

function release(paths: string[]): void {
  for (const path of paths) {
    const n = (users.get(path) ?? 1) - 1;
    if (n > 0) users.set(path, n);
    else users.delete(path);
  }
  clearTimeout(sweepTimer);
  sweepTimer = setTimeout(() => {
    sweeping = sweepPlaceholders().catch((err: unknown) => {
      // No host to log to here: a warning on stderr at least says the workspace has leftovers.
      process.emitWarning(`Keel could not remove the sandbox's empty placeholders: ${err instanceof Error ? err.message : String(err)}`);
    });
  }, placeholderLingerMs);
  sweepTimer.unref();
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
    if (!exitHook) {
      exitHook = true;
      process.once('exit', removeAllSync);
    }
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

/** At exit nothing async runs any more: whatever placeholder is left goes now, innermost first. */
function removeAllSync(): void {
  for (const [path, kind] of [...created.entries()].sort((a, b) => b[0].length - a[0].length)) {
    try {
      if (kind === 'dir') {
        if (readdirSync(path).length === 0) rmdirSync(path);
      } else if (lstatSync(path).size === 0) unlinkSync(path);
    } catch (err) {
      // Exiting: a placeholder already gone is fine; anything else is said on stderr.
      if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) process.stderr.write(`Keel: could not remove ${path}: ${String(err)}\n`);
    }
  }
  created.clear();
}
