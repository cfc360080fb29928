import { lstat, rm } from 'node:fs/promises';

/** Removes those of `paths` that a sandboxed run created; returns them. */
export async function removeAppeared(paths: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const path of paths) {
    try {
      await lstat(path);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'ENOENT') continue;
      throw err;
    }
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
