import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorktree } from '../../../src/core/worktrees/gitWorktree';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';

const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' });
}

export function put(root: string, path: string, bytes: string | Buffer, mode?: number): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, bytes);
  if (mode !== undefined) chmodSync(full, mode);
}

/** A checkout with a first commit of `files`, and a worktree made from it. */
export async function repoWithWorktree(files: Record<string, string | Buffer>): Promise<{ root: string; checkout: string; wt: Worktree; dispose(): void }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'keel-wt-')));
  const checkout = join(root, 'checkout');
  mkdirSync(checkout);
  git(checkout, 'init', '-q');
  git(checkout, 'config', 'core.autocrlf', 'false');
  for (const [path, bytes] of Object.entries(files)) put(checkout, path, bytes);
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '-q', '-m', 'base');
  const wt = await createWorktree({ dir: checkout, root: join(root, 'worktrees'), name: 'task' });
  return { root, checkout, wt, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
