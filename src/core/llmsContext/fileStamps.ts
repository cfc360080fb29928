import { stat } from 'node:fs/promises';
import { errorCode } from '../errorCode';

/** mtime and size of a path, or 'missing'; what a cache compares to know it is still true. */
export type Stamp = string;

export async function stampOf(path: string): Promise<Stamp> {
  try {
    const info = await stat(path);
    return `${info.mtimeMs}:${info.size}:${info.isDirectory() ? 'd' : 'f'}`;
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw err;
  }
}

/** Stamps of several paths, taken together. */
export async function stampAll(paths: readonly string[]): Promise<Map<string, Stamp>> {
  const stamps = await Promise.all(paths.map((p) => stampOf(p)));
  return new Map(paths.map((p, i) => [p, stamps[i]]));
}

/** True when every path still has the stamp it had. */
export async function stampsHold(stamps: ReadonlyMap<string, Stamp>): Promise<boolean> {
  const paths = [...stamps.keys()];
  const now = await Promise.all(paths.map((p) => stampOf(p)));
  return paths.every((p, i) => stamps.get(p) === now[i]);
}
