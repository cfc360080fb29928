import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';

/**
 * Whether something (a link counts, not its target) is at `path`. A path we may not look into
 * counts as absent: the sandbox only binds what it can see.
 */
export async function pathPresent(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (isGone(err)) return false;
    throw err;
  }
}

/** A file-system error that means "nothing there for us" rather than a failure. */
export function isGone(err: unknown): boolean {
  const code = err instanceof Error && 'code' in err ? err.code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES';
}

/** A folder's entries, or undefined when it is gone (or may not be looked into). */
export async function readFolder(dir: string): Promise<Dirent[] | undefined> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
}
