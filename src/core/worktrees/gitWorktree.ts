import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KeelError } from '../errors';
import { runGit } from '../llmsContext/runGit';
import { projectDir, workspaceKey } from '../paths';

/** A git worktree that one conversation works in, on a branch of its own. */
export interface Worktree {
  /** The worktree's folder: the conversation's workspace. */
  path: string;
  /** The branch it was created on, `keel/<name>`. */
  branch: string;
  /** The commit it started from (the checkout's HEAD at creation). */
  base: string;
  /** The checkout it was made from (its top level). */
  repo: string;
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Whether `name` can be a worktree's folder and branch name. */
export function isWorktreeName(name: string): boolean {
  return namePattern.test(name) && !name.includes('..') && !name.endsWith('.lock') && !name.endsWith('.');
}

/** A name the person gave, checked: it becomes a folder and a branch name. */
export function checkWorktreeName(name: string): string {
  if (!isWorktreeName(name)) {
    throw new KeelError('usage', `"${name}" cannot name a worktree: use 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit.`);
  }
  return name;
}

/** A fresh name when the person gives none: sortable by time, unique enough per second. */
export function defaultWorktreeName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Where a repository's worktrees live by default: under KEEL_HOME, outside the workspace, so the
 * workspace's file watchers, search and test runners never see the agents' copies.
 */
export function defaultWorktreeRoot(home: string, repo: string): string {
  return join(projectDir(home, workspaceKey({ root: repo })), 'worktrees');
}

async function git(cwd: string, args: string[]): Promise<string> {
  const out = await runGit(cwd, args, { timeoutMs: 120_000 });
  if (!out.ok) throw new KeelError('config', `git ${args[0]} failed in ${cwd}: ${out.error}`);
  return out.stdout.trim();
}

/** The top level of the git checkout that holds `dir`, or a clear error when there is none. */
export async function repoRoot(dir: string): Promise<string> {
  const out = await runGit(dir, ['rev-parse', '--show-toplevel']);
  if (!out.ok) {
    throw new KeelError('config', out.missing ? 'A worktree needs git, which is not installed or not on PATH.' : `A worktree needs a git repository, and ${dir} is not in one.`);
  }
  return out.stdout.trim();
}

/**
 * Creates `keel/<name>` from the checkout's HEAD in a new worktree under `root`. The person's
 * checkout is left as it was: no checkout, no index change, no stash; only the new branch and
 * git's own worktree bookkeeping are added.
 */
export async function createWorktree(opts: { dir: string; root: string; name: string }): Promise<Worktree> {
  const name = checkWorktreeName(opts.name);
  const repo = await repoRoot(opts.dir);
  const base = (await runGit(repo, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
  if (!base) throw new KeelError('config', `${repo} has no commit yet: a worktree starts from HEAD, so make a first commit.`);
  const branch = `keel/${name}`;
  const path = join(opts.root, name);
  if (existsSync(path)) throw new KeelError('config', `A worktree named "${name}" already exists at ${path}; choose another name.`);
  if ((await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok) {
    throw new KeelError('config', `The branch ${branch} already exists; choose another worktree name.`);
  }
  await git(repo, ['worktree', 'add', '-b', branch, path, base]);
  return { path, branch, base, repo };
}

/** Files with changes git sees (tracked changes and untracked files), as `git status --porcelain` lines. */
export async function uncommittedChanges(path: string): Promise<string[]> {
  // Not trimmed: the first line's status column may start with a space (" M a.txt").
  const out = await runGit(path, ['status', '--porcelain', '--untracked-files=all'], { timeoutMs: 120_000 });
  if (!out.ok) throw new KeelError('config', `git status failed in ${path}: ${out.error}`);
  return out.stdout.split('\n').filter((line) => line.length > 0);
}

/**
 * Removes a worktree and, when asked, its branch. Uncommitted work is never thrown away
 * without `force`: the call fails and names the files instead.
 */
export async function removeWorktree(wt: Pick<Worktree, 'path' | 'branch' | 'repo'>, opts: { force?: boolean; deleteBranch?: boolean } = {}): Promise<void> {
  if (existsSync(wt.path) && !opts.force) {
    const changes = await uncommittedChanges(wt.path);
    if (changes.length) {
      throw new KeelError('config', `The worktree ${wt.path} has uncommitted work (${changes.length} file(s): ${changes.slice(0, 3).map((l) => l.slice(3)).join(', ')}${changes.length > 3 ? ', …' : ''}); it was kept.`);
    }
  }
  // Checked above with Keel's own status; git's check would run `git status` inside the
  // worktree with its submodules entered, under their config.
  await git(wt.repo, ['worktree', 'remove', '--force', wt.path]);
  if (opts.deleteBranch) await git(wt.repo, ['branch', opts.force ? '-D' : '-d', wt.branch]);
}
