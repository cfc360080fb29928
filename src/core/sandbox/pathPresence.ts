import type { Dirent, Stats } from 'node:fs';
import { lstatSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { errorCode } from '../errorCode';
import { isGone } from '../goneErrors';

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

/**
 * A folder's entries; `gone` when nothing is there, `denied` when it may not be looked into
 * (a folder a command made unreadable may hide protected paths: the callers fail closed).
 */
export async function readFolder(dir: string): Promise<Dirent[] | 'gone' | 'denied'> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = errorCode(err);
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    if (isGone(err)) return 'gone';
    throw err;
  }
}

/** What is at `path` (a link itself, not its target), or undefined when nothing is; synchronous (an lstat is microseconds). */
export function lstatOrGone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
}
