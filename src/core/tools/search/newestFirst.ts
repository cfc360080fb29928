import { statSync } from 'node:fs';

/** Stats per slice before yielding to the event loop; sync stats are ~10x cheaper than async ones. */
const sliceSize = 500;

/**
 * Paths by modification time, newest first; equal times in display order so output is stable.
 * A file deleted meanwhile sorts last rather than failing the whole listing.
 */
export async function newestFirst(paths: readonly string[], display: (p: string) => string): Promise<string[]> {
  const entries: { p: string; mtime: number; shown: string }[] = [];
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % sliceSize === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const info = statSync(paths[i], { throwIfNoEntry: false });
    entries.push({ p: paths[i], mtime: info ? info.mtimeMs : Number.NEGATIVE_INFINITY, shown: display(paths[i]) });
  }
  entries.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return entries.map((x) => x.p);
}
