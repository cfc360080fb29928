import { stat } from 'node:fs/promises';

/** The first path that does not exist, so searches can say so instead of failing obscurely. */
export async function firstMissing(paths: readonly string[]): Promise<string | undefined> {
  for (const p of paths) {
    try {
      await stat(p);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return p;
      throw err;
    }
  }
  return undefined;
}
