import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LayoutPath } from './sandboxTypes';

/**
 * What hides everything in `dir` except the paths down to `keep` (folders inside it): each
 * entry beside that path is hidden on its own, level by level, so a workspace folder under a
 * hidden folder stays visible while its siblings (another project's sessions) do not.
 */
export async function hiddenAround(dir: string, keep: readonly string[]): Promise<LayoutPath[]> {
  if (keep.includes(dir)) return [];
  const out: LayoutPath[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? err.code : undefined;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return [];
    throw err;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const below = keep.filter((k) => k === path || k.startsWith(`${path}/`));
    if (below.length > 0 && entry.isDirectory()) out.push(...(await hiddenAround(path, below)));
    else if (entry.isDirectory()) out.push({ path, kind: 'dir' });
    // As for the other secrets, a symlink is left alone: a mount over it would land where it points.
    else if (entry.isFile()) out.push({ path, kind: 'file' });
  }
  return out;
}
