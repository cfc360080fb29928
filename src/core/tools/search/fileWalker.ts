import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { errorMessage } from '../../errors';
import { gitignoreVerdict, parseGitignore, type IgnoreRule } from './gitignore';
import { errorCode } from '../../errorCode';

/** Names never searched, whatever the ignore files say. */
export const alwaysSkipped: readonly string[] = ['.git', 'node_modules'];

interface Level {
  dir: string;
  rules?: IgnoreRule[];
  /** A folder holding `.git`: ignore files above it do not apply below it. */
  hasGit: boolean;
}

export interface WalkResult {
  files: string[];
  /** True when maxFiles was reached and the walk stopped early. */
  truncated: boolean;
  /** Folders that could not be read. */
  warnings: string[];
}

export interface WalkOptions {
  signal?: AbortSignal;
  maxFiles?: number;
}

const concurrency = 8;

/**
 * Lists the files under each root the way ripgrep does with our flags: .gitignore files in
 * the tree and in parent folders up to the repository root apply, `.git` and
 * `node_modules` are skipped, hidden files are included, symbolic links are not followed.
 * A root that is a file is returned as is.
 */
export async function walkFiles(roots: readonly string[], opts: WalkOptions = {}): Promise<WalkResult> {
  const result: WalkResult = { files: [], truncated: false, warnings: [] };
  const maxFiles = opts.maxFiles ?? Number.POSITIVE_INFINITY;
  const queue: { dir: string; stack: Level[] }[] = [];
  for (const root of roots) {
    const info = await stat(root);
    if (info.isFile()) result.files.push(root);
    else if (info.isDirectory()) queue.push({ dir: root, stack: await ancestorLevels(root, result.warnings) });
  }

  const visit = async (dir: string, parents: Level[]): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      result.warnings.push(`${dir}: ${errorMessage(err)}`);
      return;
    }
    const hasGit = entries.some((e) => e.name === '.git');
    const ignoreFile = entries.find((e) => e.name === '.gitignore' && !e.isDirectory());
    const rules = ignoreFile ? await loadRules(join(dir, '.gitignore'), result.warnings) : undefined;
    const stack = [...parents, { dir, rules, hasGit }];
    for (const entry of entries) {
      if (alwaysSkipped.includes(entry.name)) continue;
      const full = join(dir, entry.name);
      const kind = await entryKind(entry, full);
      if (kind === 'other') continue;
      if (isIgnored(stack, full, kind === 'dir')) continue;
      if (kind === 'dir') {
        queue.push({ dir: full, stack });
      } else {
        if (result.files.length >= maxFiles) {
          result.truncated = true;
          return;
        }
        result.files.push(full);
      }
    }
  };

  let active = 0;
  let wake: (() => void)[] = [];
  const wakeAll = (): void => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };
  // Each worker takes folders off the queue; an idle worker waits while others may still add some.
  const worker = async (): Promise<void> => {
    for (;;) {
      if (opts.signal?.aborted) {
        wakeAll();
        throw new Error('Search cancelled.');
      }
      const job = result.truncated ? undefined : queue.shift();
      if (!job) {
        if (active === 0) {
          wakeAll();
          return;
        }
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      active++;
      try {
        await visit(job.dir, job.stack);
      } finally {
        active--;
        wakeAll();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return result;
}

async function entryKind(entry: Dirent, full: string): Promise<'file' | 'dir' | 'other'> {
  if (entry.isSymbolicLink()) return 'other';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  // Some file systems do not report the type in readdir.
  const info = await lstat(full);
  return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
}

function isIgnored(stack: readonly Level[], full: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const level = stack[i];
    if (level.rules) {
      const rel = relative(level.dir, full).split(sep).join('/');
      const verdict = gitignoreVerdict(level.rules, rel, isDir);
      if (verdict) return verdict === 'ignore';
    }
    if (level.hasGit) return false;
  }
  return false;
}

async function loadRules(path: string, warnings: string[]): Promise<IgnoreRule[] | undefined> {
  try {
    return parseGitignore(await readFile(path, 'utf8'));
  } catch (err) {
    warnings.push(`${path}: ${errorMessage(err)}`);
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}

/** Ignore files of the folders above a root, up to the nearest one holding `.git`. */
async function ancestorLevels(root: string, warnings: string[]): Promise<Level[]> {
  if (await exists(join(root, '.git'))) return [];
  const levels: Level[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    const hasGit = await exists(join(dir, '.git'));
    const ignorePath = join(dir, '.gitignore');
    const rules = (await exists(ignorePath)) ? await loadRules(ignorePath, warnings) : undefined;
    levels.unshift({ dir, rules, hasGit });
    if (hasGit || dirname(dir) === dir) break;
  }
  return levels;
}
