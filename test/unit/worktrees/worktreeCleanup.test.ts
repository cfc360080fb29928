import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { removeWorktreeFolder } from '../../../src/core/worktrees/worktreeCleanup';
import { git, put, repoWithWorktree } from './worktreeRepo';

function branches(checkout: string): string[] {
  return git(checkout, 'branch', '--format=%(refname:short)').trim().split('\n');
}

describe('cleaning up a worktree', () => {
  let dispose = (): void => undefined;
  afterEach(() => dispose());

  it('removes a clean worktree without asking and keeps its branch unless told', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    put(r.wt.path, 'a.txt', 'agent\n');
    git(r.wt.path, 'commit', '-qam', 'agent work');
    const asked: string[][] = [];
    const outcome = await removeWorktreeFolder(r.wt, { deleteBranch: false, confirm: async (files) => (asked.push(files), true) });
    expect(outcome).toBe('removed');
    expect(asked).toEqual([]);
    expect(existsSync(r.wt.path)).toBe(false);
    expect(branches(r.checkout)).toContain('keel/task');
    expect(git(r.checkout, 'log', '--format=%s', '-1', 'keel/task').trim()).toBe('agent work');
  });

  it('asks before uncommitted work goes, and keeps everything on a no', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    put(r.wt.path, 'a.txt', 'uncommitted\n');
    put(r.wt.path, 'new.txt', 'untracked\n');
    const asked: string[][] = [];
    const outcome = await removeWorktreeFolder(r.wt, { deleteBranch: true, confirm: async (files) => (asked.push(files), false) });
    expect(outcome).toBe('kept');
    expect(asked).toEqual([['a.txt', 'new.txt']]);
    expect(existsSync(r.wt.path)).toBe(true);
    expect(branches(r.checkout)).toContain('keel/task');
  });

  it('discards uncommitted work and the branch when the person says yes and ticked it', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    put(r.wt.path, 'a.txt', 'committed\n');
    git(r.wt.path, 'commit', '-qam', 'unmerged');
    put(r.wt.path, 'a.txt', 'uncommitted\n');
    const outcome = await removeWorktreeFolder(r.wt, { deleteBranch: true, confirm: async () => true });
    expect(outcome).toBe('removed');
    expect(existsSync(r.wt.path)).toBe(false);
    expect(branches(r.checkout)).not.toContain('keel/task');
  });

  it('prunes a worktree whose folder is gone already', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    rmSync(r.wt.path, { recursive: true, force: true });
    expect(await removeWorktreeFolder(r.wt, { deleteBranch: true, confirm: async () => true })).toBe('removed');
    expect(git(r.checkout, 'worktree', 'list')).not.toContain('task');
    expect(branches(r.checkout)).not.toContain('keel/task');
  });
});
