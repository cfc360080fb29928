import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProposalReview } from '../../../src/core/diff/proposalReview';
import { checkoutAtBase, checkoutBytes, writeToCheckout } from '../../../src/core/worktrees/checkoutWrite';
import { textOf, worktreeChanges } from '../../../src/core/worktrees/worktreeDiff';
import type { WorktreeFileChange } from '../../../src/core/worktrees/worktreeDiff';
import { put, repoWithWorktree } from './worktreeRepo';

const bom = '\uFEFF';
const base = `${bom}line 1\r\nline 2\r\nline 3\r\nline 4\r\nline 5\r\nline 6\r\nline 7\r\nline 8\r\nline 9\r\n`;

describe('applying reviewed worktree changes to the checkout', () => {
  let dispose = (): void => undefined;
  afterEach(() => dispose());

  function change(changes: WorktreeFileChange[], path: string): WorktreeFileChange {
    const found = changes.find((c) => c.path === path);
    if (!found) throw new Error(`no change to ${path}`);
    return found;
  }

  it('writes exactly the accepted hunk, keeping the BOM and CRLF line endings', async () => {
    const r = await repoWithWorktree({ 'src/math.ts': base });
    dispose = r.dispose;
    put(r.wt.path, 'src/math.ts', base.replace('line 2', 'line TWO').replace('line 8', 'line EIGHT'));
    const c = change(await worktreeChanges(r.wt), 'src/math.ts');
    const review = new ProposalReview({ displayPath: c.path, before: textOf(c.base!)!, after: textOf(c.current!)! });
    expect(review.hunks()).toHaveLength(2);
    review.acceptHunk(0);
    review.rejectHunk(1);
    expect(review.decided()).toBe('accept');
    await writeToCheckout(r.checkout, c, Buffer.from(review.accept().content, 'utf8'), c.base);
    const written = readFileSync(join(r.checkout, 'src/math.ts'));
    expect(written.equals(Buffer.from(base.replace('line 2', 'line TWO'), 'utf8'))).toBe(true);
    expect([...written.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('adds new files with their exec bit, deletes deleted ones and moves renamed ones', async () => {
    const r = await repoWithWorktree({ 'gone.txt': 'bye\n', 'old.txt': 'moving\nfile\nwith lines\n', 'keep.txt': 'k\n' });
    dispose = r.dispose;
    put(r.wt.path, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    const { rmSync, renameSync } = await import('node:fs');
    rmSync(join(r.wt.path, 'gone.txt'));
    renameSync(join(r.wt.path, 'old.txt'), join(r.wt.path, 'new.txt'));
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['add', '-A'], { cwd: r.wt.path });
    const changes = await worktreeChanges(r.wt);
    for (const c of changes) await writeToCheckout(r.checkout, c, c.current, c.status === 'added' ? null : c.base);
    expect(readFileSync(join(r.checkout, 'bin/run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(statSync(join(r.checkout, 'bin/run.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(r.checkout, 'gone.txt'))).toBe(false);
    expect(existsSync(join(r.checkout, 'old.txt'))).toBe(false);
    expect(readFileSync(join(r.checkout, 'new.txt'), 'utf8')).toBe('moving\nfile\nwith lines\n');
    expect(readFileSync(join(r.checkout, 'keep.txt'), 'utf8')).toBe('k\n');
  });

  it('writes binary files byte for byte', async () => {
    const r = await repoWithWorktree({ 'logo.png': Buffer.from([0x89, 0x50, 0, 1]) });
    dispose = r.dispose;
    put(r.wt.path, 'logo.png', Buffer.from([0x89, 0x50, 0, 2, 0xff]));
    const c = change(await worktreeChanges(r.wt), 'logo.png');
    expect(c.binary).toBe(true);
    await writeToCheckout(r.checkout, c, c.current, c.base);
    expect(readFileSync(join(r.checkout, 'logo.png'))).toEqual(Buffer.from([0x89, 0x50, 0, 2, 0xff]));
  });

  it('says when the checkout changed the file since the base and overwrites nothing', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    dispose = r.dispose;
    put(r.wt.path, 'a.txt', 'one from the agent\n');
    put(r.wt.path, 'b.txt', 'two from the agent\n');
    put(r.wt.path, 'c.txt', 'new from the agent\n');
    writeFileSync(join(r.checkout, 'a.txt'), 'one, edited by the person\n');
    writeFileSync(join(r.checkout, 'c.txt'), 'the person made this too\n');
    const changes = await worktreeChanges(r.wt);
    expect(await checkoutAtBase(r.checkout, change(changes, 'a.txt'))).toBe(false);
    expect(await checkoutAtBase(r.checkout, change(changes, 'b.txt'))).toBe(true);
    expect(await checkoutAtBase(r.checkout, change(changes, 'c.txt'))).toBe(false);
    const a = change(changes, 'a.txt');
    await expect(writeToCheckout(r.checkout, a, a.current, a.base)).rejects.toThrow(/changed in your checkout/);
    expect(readFileSync(join(r.checkout, 'a.txt'), 'utf8')).toBe('one, edited by the person\n');
    // Reviewed against the person's version: a later edit of theirs is still not overwritten.
    const seen = await checkoutBytes(r.checkout, 'b.txt');
    writeFileSync(join(r.checkout, 'b.txt'), 'edited during the review\n');
    const b = change(changes, 'b.txt');
    await expect(writeToCheckout(r.checkout, b, b.current, seen)).rejects.toThrow(/changed in your checkout/);
    expect(readFileSync(join(r.checkout, 'b.txt'), 'utf8')).toBe('edited during the review\n');
  });

  it('refuses paths that leave the checkout or enter .git', async () => {
    const r = await repoWithWorktree({ 'a.txt': 'a\n' });
    dispose = r.dispose;
    const evil = { path: '../outside.txt', status: 'added', base: null, current: Buffer.from('x'), baseExecutable: false, executable: false, binary: false } as const;
    await expect(writeToCheckout(r.checkout, evil, evil.current, null)).rejects.toThrow(/not a path Keel writes/);
    await expect(writeToCheckout(r.checkout, { ...evil, path: '.git/config' }, evil.current, null)).rejects.toThrow(/not a path Keel writes/);
  });
});
