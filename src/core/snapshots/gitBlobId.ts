import { createHash } from 'node:crypto';
import { lstat, readFile, readlink } from 'node:fs/promises';

export type GitMode = '100644' | '100755' | '120000';

/** A file as git records it: its blob id and mode. */
export interface GitFileState {
  oid: string;
  mode: GitMode;
}

/** The id git gives these bytes as a blob (sha1 of "blob <size>\0" and the bytes). */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** What is on disk at `absPath` now, as git would record it; null when nothing is there. */
export async function diskState(absPath: string): Promise<GitFileState | null> {
  let info;
  try {
    info = await lstat(absPath);
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return null;
    throw err;
  }
  if (info.isSymbolicLink()) return { oid: gitBlobId(await readlink(absPath, { encoding: 'buffer' })), mode: '120000' };
  if (!info.isFile()) return null;
  return { oid: gitBlobId(await readFile(absPath)), mode: (info.mode & 0o111) !== 0 ? '100755' : '100644' };
}
