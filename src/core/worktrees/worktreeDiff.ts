import { copyFile, lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KeelError } from '../errors';
import { excludeGitlinks, hostGit } from '../git/hostGit';
import type { Worktree } from './gitWorktree';

/** One file the worktree changed against its base: committed, uncommitted and untracked alike. */
export interface WorktreeFileChange {
  /** Path in the repository (forward slashes): where the file is now. */
  path: string;
  /** Where a renamed file was at the base. */
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** The bytes at the base (of `oldPath` for a rename); null when it did not exist. */
  base: Buffer | null;
  /** The bytes in the worktree now; null when deleted. */
  current: Buffer | null;
  baseExecutable: boolean;
  executable: boolean;
  /** Not UTF-8 text (a NUL byte, invalid UTF-8, a symlink): reviewed as a whole file. */
  binary: boolean;
}

const maxBuffer = 256 * 1024 * 1024;

async function gitBytes(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Buffer> {
  const out = await hostGit(cwd, args, { env, maxBuffer });
  if (!out.ok) throw new KeelError('config', `git ${args[0]} failed in ${cwd}: ${out.error?.split('\n')[0] ?? 'unknown error'}`);
  return out.stdout;
}

/**
 * `git diff --name-status` of everything on disk against the base, untracked files included,
 * so git's rename detection also pairs a file the agent moved without `git add`. It runs on a
 * copy of the worktree's index: the worktree's own index is never changed.
 */
async function nameStatusOnDisk(wt: Pick<Worktree, 'path' | 'base'>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-review-index-'));
  try {
    const index = join(dir, 'index');
    const own = resolve(wt.path, (await gitBytes(wt.path, ['rev-parse', '--git-path', 'index'])).toString('utf8').trim());
    // A copy keeps git's stat cache, so only files that changed are read and hashed.
    await copyFile(own, index).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    const env = { GIT_INDEX_FILE: index };
    // The submodules it holds stay as the index has them: adding them would start git inside each.
    const gitlinks = (await gitBytes(wt.path, ['ls-files', '-s', '-z'], env)).toString('utf8').split('\0').filter((e) => e.startsWith('160000 ')).map((e) => e.slice(e.indexOf('\t') + 1));
    await gitBytes(wt.path, ['add', '--all', '--', ':/', ...excludeGitlinks(gitlinks)], env);
    return (await gitBytes(wt.path, ['diff', '--cached', '--name-status', '-z', '--find-renames', '--no-ext-diff', wt.base, '--'], env)).toString('utf8').split('\0');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The whole change of a worktree against the commit it started from, as the files on disk
 * are now: what the agent committed, what it left uncommitted and the files git does not
 * track yet (ignored files are left out, as git leaves them out). Renames git detects are one
 * entry, committed or not. Sorted by path.
 */
export async function worktreeChanges(wt: Pick<Worktree, 'path' | 'base'>): Promise<WorktreeFileChange[]> {
  const diff = await nameStatusOnDisk(wt);
  const entries: { status: WorktreeFileChange['status']; path: string; oldPath?: string }[] = [];
  for (let i = 0; i < diff.length - 1; ) {
    const code = diff[i++]!;
    if (code.startsWith('R')) {
      const oldPath = diff[i++]!;
      entries.push({ status: 'renamed', oldPath, path: diff[i++]! });
    } else {
      const path = diff[i++]!;
      entries.push({ status: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified', path });
    }
  }
  const out: WorktreeFileChange[] = [];
  for (const e of entries) {
    const basePath = e.oldPath ?? e.path;
    const inBase = e.status !== 'added';
    const baseMode = inBase ? await modeAt(wt.path, wt.base, basePath) : undefined;
    const base = inBase ? await gitBytes(wt.path, ['cat-file', 'blob', `${wt.base}:${basePath}`]) : null;
    const disk = e.status === 'deleted' ? undefined : await onDisk(join(wt.path, e.path));
    const current = disk?.bytes ?? null;
    if (e.status !== 'deleted' && !disk) continue;
    out.push({
      path: e.path,
      ...(e.oldPath ? { oldPath: e.oldPath } : {}),
      status: e.status,
      base,
      current,
      baseExecutable: baseMode === '100755',
      executable: disk?.executable ?? false,
      binary: baseMode === '120000' || disk?.link === true || isBinary(base) || isBinary(current),
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function modeAt(cwd: string, commit: string, path: string): Promise<string | undefined> {
  const line = (await gitBytes(cwd, ['ls-tree', '-z', commit, '--', path])).toString('utf8');
  return line ? line.split(' ')[0] : undefined;
}

async function onDisk(path: string): Promise<{ bytes: Buffer; executable: boolean; link: boolean } | undefined> {
  let info;
  try {
    info = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (info.isSymbolicLink()) return { bytes: Buffer.alloc(0), executable: false, link: true };
  // A repository inside (git records only its commit) has no bytes to review.
  if (info.isDirectory()) return undefined;
  return { bytes: await readFile(path), executable: (info.mode & 0o111) !== 0, link: false };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, BOM kept as U+FEFF so writing it back gives the same bytes; undefined for anything else. */
export function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    // Not UTF-8: the caller treats the file as binary.
    return undefined;
  }
}

function isBinary(bytes: Buffer | null): boolean {
  return bytes !== null && textOf(bytes) === undefined;
}
