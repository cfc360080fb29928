import { stat } from 'node:fs/promises';

/** Paths by modification time, newest first; equal times in display order so output is stable. */
export async function newestFirst(paths: readonly string[], display: (p: string) => string): Promise<string[]> {
  const withTime = await Promise.all(paths.map(async (p) => ({ p, mtime: (await stat(p)).mtimeMs, shown: display(p) })));
  withTime.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return withTime.map((x) => x.p);
}
