import { access, constants } from 'node:fs/promises';

/** True when `path` exists and may be executed; other failures than "not there / not allowed" throw. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'ENOTDIR')) {
      return false;
    }
    throw err;
  }
}
