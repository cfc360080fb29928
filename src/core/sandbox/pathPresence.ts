import { lstat } from 'node:fs/promises';
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
