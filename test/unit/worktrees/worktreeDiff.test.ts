import { rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, renameSync } from 'node:fs';
import { reviewTexts } from '../../../src/core/worktrees/reviewTexts';
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

  it('pairs a file moved and edited without git add as a rename, reviewed against the old content, and leaves the index alone', async () => {
    const lines = Array.from({ length: 12 }, (_, n) => `line ${n + 1}`);
    const r = await repoWithWorktree({ 'src/old.ts': `${lines.join('\n')}\n`, 'pure.txt': 'only moved\nnot edited\nat all\n' });
    dispose = r.dispose;
    const w = r.wt.path;
    const indexBefore = readFileSync(resolve(w, git(w, 'rev-parse', '--git-path', 'index').trim()));
    put(w, 'lib/new.ts', `${lines.map((l) => (l === 'line 6' ? 'line six' : l)).join('\n')}\n`);
    rmSync(join(w, 'src/old.ts'));
    renameSync(join(w, 'pure.txt'), join(w, 'moved.txt'));
    const changes = await worktreeChanges(r.wt);
    expect(changes.map((c) => `${c.status} ${c.oldPath ?? ''} -> ${c.path}`)).toEqual(['renamed src/old.ts -> lib/new.ts', 'renamed pure.txt -> moved.txt']);
    expect(git(w, 'status', '--porcelain')).toBe(' D pure.txt\n D src/old.ts\n?? lib/\n?? moved.txt\n');
    expect(readFileSync(resolve(w, git(w, 'rev-parse', '--git-path', 'index').trim()))).toEqual(indexBefore);

    // The edit is one hunk against the old path's text, not a whole new file.
    const edited = reviewTexts(changes[0]!);
    expect(edited.before).toBe(`${lines.join('\n')}\n`);
    expect(edited.after).toContain('line six');
    // A move without edits has no hunk: it is offered as the whole file.
    expect(reviewTexts(changes[1]!)).toEqual({ before: null, after: 'only moved\nnot edited\nat all\n' });
  });
});
