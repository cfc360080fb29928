import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { PathError } from './pathError';
import { errorCode } from '../errorCode';

/** Symlink hops allowed while resolving a missing path (Linux's own limit is 40). */
const maxHops = 40;

/**
 * realpath that also works for paths that do not exist yet: the nearest existing ancestor
 * is resolved and the rest appended. A dangling symlink on the way is followed to its
 * target (otherwise creating the file would write wherever the link points).
 */
export async function realpathAllowMissing(absPath: string, input: string): Promise<string> {
  return resolveFrom(absPath, input, { hops: 0 });
}

async function resolveFrom(absPath: string, input: string, state: { hops: number }): Promise<string> {
  try {
    return await realpath(absPath);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ELOOP') throw new PathError(`Refusing path ${JSON.stringify(input)}: it runs into a symbolic link loop.`, input);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  const parent = dirname(absPath);
  if (parent === absPath) return absPath;
  const realParent = await resolveFrom(parent, input, state);
  const candidate = join(realParent, basename(absPath));
  let isLink: boolean;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return candidate;
    throw err;
  }
  if (!isLink) return candidate;
  state.hops++;
  if (state.hops > maxHops) {
    throw new PathError(`Refusing path ${JSON.stringify(input)}: it runs into a symbolic link loop.`, input);
  }
  const target = await readlink(candidate);
  return resolveFrom(resolve(realParent, target), input, state);
}
