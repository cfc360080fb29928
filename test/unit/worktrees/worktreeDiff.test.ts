import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { worktreeChanges } from '../../../src/core/worktrees/worktreeDiff';
import { git, put, repoWithWorktree } from './worktreeRepo';

describe('the whole change of a worktree against its base', () => {
  let dispose = (): void => undefined;
  afterEach(() => dispose());

  it('holds committed, uncommitted and untracked changes, renames, deletions and binary files', async () => {
    const r = await repoWithWorktree({
      'src/math.ts': 'export const one = 1;\n',
      'old/name.txt': 'a file that moves\nwith several lines\nso git sees a rename\n',
      'gone.txt': 'deleted later\n',
      'staged.txt': 'before\n',
      'image.bin': Buffer.from([0, 1, 2, 3]),
      'same.txt': 'untouched\n',
    });
    dispose = r.dispose;
    const w = r.wt.path;
    put(w, 'src/math.ts', 'export const one = 1;\nexport const two = 2;\n');
    git(w, 'commit', '-qam', 'committed');
    put(w, 'new/.keep', '');
    git(w, 'mv', 'old/name.txt', 'new/name.txt');
    rmSync(join(w, 'new/.keep'));
    rmSync(join(w, 'gone.txt'));
    put(w, 'staged.txt', 'after\n');
    git(w, 'add', 'staged.txt');
    put(w, 'image.bin', Buffer.from([0, 9, 9]));
    put(w, 'untracked/new.sh', '#!/bin/sh\necho hi\n', 0o755);
    const changes = await worktreeChanges(r.wt);
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
    expect(changes.map((c) => `${c.status} ${c.path}`)).toEqual([
      'deleted gone.txt',
      'modified image.bin',
      'renamed new/name.txt',
      'modified src/math.ts',
      'modified staged.txt',
      'added untracked/new.sh',
    ]);
    expect(byPath['src/math.ts']!.base!.toString()).toBe('export const one = 1;\n');
    expect(byPath['src/math.ts']!.current!.toString()).toBe('export const one = 1;\nexport const two = 2;\n');
    expect(byPath['new/name.txt']!.oldPath).toBe('old/name.txt');
    expect(byPath['gone.txt']!.current).toBeNull();
    expect(byPath['image.bin']!.binary).toBe(true);
    expect(byPath['image.bin']!.current).toEqual(Buffer.from([0, 9, 9]));
    expect(byPath['untracked/new.sh']).toMatchObject({ base: null, executable: true, binary: false });
    expect(byPath['src/math.ts']!.binary).toBe(false);
  });

  it('leaves out ignored files and reports an exec-bit change', async () => {
    const r = await repoWithWorktree({ '.gitignore': 'build/\n', 'run.sh': 'echo\n' });
    dispose = r.dispose;
    put(r.wt.path, 'build/out.js', 'x');
    put(r.wt.path, 'run.sh', 'echo\n', 0o755);
    const changes = await worktreeChanges(r.wt);
    expect(changes.map((c) => [c.path, c.baseExecutable, c.executable])).toEqual([['run.sh', false, true]]);
  });

  it('treats a symlink the agent made as binary (reviewed as a whole)', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    symlinkSync('/etc/passwd', join(r.wt.path, 'link'));
    const [change] = await worktreeChanges(r.wt);
    expect(change).toMatchObject({ path: 'link', status: 'added', binary: true });
  });
});
