import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gitignoreVerdict, parseGitignore } from '../tools/search/gitignore';
import type { IgnoreRule } from '../tools/search/gitignore';
import { stampOf } from './fileStamps';
import type { Stamp } from './fileStamps';
import { errorCode } from '../errorCode';

/** The .gitignore rules of one folder on the way down from the repository top. */
export interface IgnoreLevel {
  dir: string;
  rules?: IgnoreRule[];
  /** The folder holds `.git`: ignore files above it do not apply below it. */
  hasGit: boolean;
}

/** Deepest level decides first; the last matching rule of a file wins (git's order). */
export function isIgnored(stack: readonly IgnoreLevel[], full: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const level = stack[i];
    if (level.rules) {
      const verdict = gitignoreVerdict(level.rules, relative(level.dir, full).split(sep).join('/'), isDir);
      if (verdict) return verdict === 'ignore';
    }
    if (level.hasGit) return false;
  }
  return false;
}

/** Reads a .gitignore, recording its stamp; unreadable files are reported, not fatal. */
export async function loadIgnoreFile(path: string, stamps: Map<string, Stamp>, problems: string[]): Promise<IgnoreRule[] | undefined> {
  stamps.set(path, await stampOf(path));
  try {
    return parseGitignore(await readFile(path, 'utf8'));
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    problems.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** The levels above `root` up to the folder holding `.git` (none when root holds it or no repo). */
export async function ancestorLevels(root: string, repoTop: string | undefined, stamps: Map<string, Stamp>, problems: string[]): Promise<IgnoreLevel[]> {
  if (repoTop === undefined || repoTop === root) return [];
  const levels: IgnoreLevel[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    const rules = await loadIgnoreFile(join(dir, '.gitignore'), stamps, problems);
    levels.unshift({ dir, rules, hasGit: dir === repoTop });
    if (dir === repoTop || dirname(dir) === dir) break;
  }
  return levels;
}
