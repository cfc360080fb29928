/// <reference types="mocha" />
// A worktree conversation in code-server with VS Code's default settings: `/worktree NAME` in
// the composer starts it and the branch chip shows; the scripted model edits only the
// worktree; Review changes opens the file list and the diff; one hunk accepted, the other
// rejected, and the checkout holds exactly the accepted hunk (BOM and CRLF kept); Discard
// asks in dialogs and takes the worktree away.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const env = { ...process.env, GIT_AUTHOR_NAME: 'E2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
const BASE = `\uFEFF${['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].join('\r\n')}\r\n`;
const FILE = 'wt-e2e/crlf.txt';
const ONE = 'wt-e2e/one.txt';
const ONE_BASE = 'first\nsecond\nthird\n';

/** Polls until the file's bytes are exactly `expected`. */
async function untilBytes(path: string, expected: Buffer): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (!(existsSync(path) && readFileSync(path).equals(expected))) {
    if (Date.now() > deadline) throw new Error(`${path} never held the expected bytes; it holds ${existsSync(path) ? JSON.stringify(readFileSync(path, 'utf8')) : '(no file)'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a conversation in a git worktree, in code-server', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      execFileSync('mkdir', ['-p', join(workspace, 'wt-e2e')]);
      writeFileSync(join(workspace, FILE), BASE);
      writeFileSync(join(workspace, ONE), ONE_BASE);
      git(workspace, 'init', '-q');
      git(workspace, 'config', 'core.autocrlf', 'false');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-q', '-m', 'base');
    },
    cleanup: ({ workspace }) => {
      rmSync(join(workspace, '.git'), { recursive: true, force: true });
      rmSync(join(workspace, 'wt-e2e'), { recursive: true, force: true });
    },
  });

  function lens(scope: Locator, text: string): Locator {
    return scope.locator('.codelens-decoration a, .codelens-decoration span', { hasText: text }).first();
  }

  it('starts with /worktree, reviews one hunk into the checkout exactly, and Discard removes the worktree', async function () {
    this.timeout(240_000);
    const checkoutFile = join(rig.workspace, FILE);
    const input = rig.chat.composer();
    await input.click();
    await input.fill('/worktree e2e-one');
    await input.press('Enter');
    const chip = rig.chat.frame.getByTestId('worktree-branch');
    await chip.waitFor({ timeout: TIMEOUT });
    assert.strictEqual((await chip.innerText()).trim(), 'keel/e2e-one');
    const listed = git(rig.workspace, 'worktree', 'list', '--porcelain');
    const path = /^worktree (.+)$/m.exec(listed.split('\n\n').find((b) => b.includes('branch refs/heads/keel/e2e-one')) ?? '')?.[1];
    assert.ok(path, listed);

    const edited = BASE.replace('beta', 'BETA').replace('iota', 'IOTA');
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: FILE }),
        reply.tool('write', { file_path: FILE, content: edited }),
        reply.tool('read', { file_path: ONE }),
        reply.tool('write', { file_path: ONE, content: ONE_BASE.replace('second', 'SECOND') }),
        reply.text('Both shouted.', { match: { lastToolResultIncludes: 'one.txt' } }),
      ],
    });
    await rig.chat.send('shout beta and iota');
    // Writes ask as usual (default approval mode), here for the worktree's file.
    for (let i = 0; i < 2; i++) {
      await rig.chat.approvalCard().waitFor({ timeout: TIMEOUT });
      await rig.chat.approvalCard().getByTestId('approve').click();
      await rig.chat.approvalCard().waitFor({ state: 'detached', timeout: TIMEOUT });
    }
    await rig.chat.byRole('assistant').filter({ hasText: 'Both shouted.' }).waitFor({ timeout: TIMEOUT });
    await untilBytes(join(path, FILE), Buffer.from(edited, 'utf8'));
    assert.ok(readFileSync(checkoutFile).equals(Buffer.from(BASE, 'utf8')), "the person's checkout is unchanged");

    // A file with one hunk: one click on its Accept writes exactly that hunk.
    const widget = rig.page.locator('.quick-input-widget');
    const oneFile = join(rig.workspace, ONE);
    await rig.chat.frame.getByTestId('worktree-review').click();
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('.monaco-list-row', { hasText: 'one.txt' }).first().click();
    const oneDiff = rig.page.locator('.monaco-diff-editor', { hasText: 'SECOND' }).first();
    await oneDiff.waitFor({ timeout: TIMEOUT });
    await lens(oneDiff, 'Accept hunk 1').click();
    await untilBytes(oneFile, Buffer.from(ONE_BASE.replace('second', 'SECOND')));
    assert.ok(readFileSync(checkoutFile).equals(Buffer.from(BASE, 'utf8')), 'the other file is untouched');

    // Two hunks: one accepted, one rejected.
    await rig.chat.frame.getByTestId('worktree-review').click();
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('.monaco-list-row', { hasText: 'crlf.txt' }).first().click();

    const diff = rig.page.locator('.monaco-diff-editor', { hasText: 'IOTA' }).first();
    await diff.locator('.modified', { hasText: 'IOTA' }).first().waitFor({ timeout: TIMEOUT });
    await lens(diff, 'Accept hunk 1').click();
    await lens(diff, 'Hunk 1 accepted').waitFor({ timeout: TIMEOUT });
    assert.ok(readFileSync(checkoutFile).equals(Buffer.from(BASE, 'utf8')), 'nothing is written while a hunk is undecided');
    await lens(diff, 'Reject hunk 2').click();
    await untilBytes(checkoutFile, Buffer.from(BASE.replace('beta', 'BETA'), 'utf8'));
    assert.ok(readFileSync(join(path, FILE)).equals(Buffer.from(edited, 'utf8')), 'the worktree keeps its own version');

    await rig.chat.frame.getByTestId('worktree-discard').click();
    const dialog = rig.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: TIMEOUT });
    assert.match(await dialog.innerText(), /Discard the worktree of this conversation\?/);
    await dialog.getByRole('button', { name: 'Discard worktree', exact: true }).click();
    // The edit is uncommitted in the worktree: a second question before it is lost.
    await rig.page.locator('.monaco-dialog-box', { hasText: 'uncommitted work' }).waitFor({ timeout: TIMEOUT });
    await rig.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Remove with uncommitted work' }).click();
    const deadline = Date.now() + TIMEOUT;
    while (existsSync(path) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!existsSync(path), 'the worktree folder is gone');
    assert.match(git(rig.workspace, 'branch', '--list', 'keel/e2e-one'), /keel\/e2e-one/, 'the branch stays (not ticked)');
    await chip.waitFor({ state: 'detached', timeout: TIMEOUT });
    // The conversation stays in the workspace's list, marked with its branch.
    await rig.chat.frame.getByTestId('show-sessions').click();
    const row = rig.chat.frame.locator('[data-testid="session-row"]').filter({ hasText: 'shout beta and iota' });
    await row.getByTestId('session-branch').filter({ hasText: 'keel/e2e-one' }).waitFor({ timeout: TIMEOUT });
  });

  it('deleting a worktree conversation from the list asks, then removes its worktree', async function () {
    this.timeout(180_000);
    await rig.chat.frame.getByTestId('new-chat').click();
    const input = rig.chat.composer();
    await input.click();
    await input.fill('/worktree e2e-two');
    await input.press('Enter');
    await rig.chat.frame.getByTestId('worktree-branch').filter({ hasText: 'keel/e2e-two' }).waitFor({ timeout: TIMEOUT });
    const listed = git(rig.workspace, 'worktree', 'list', '--porcelain');
    const path = /^worktree (.+)$/m.exec(listed.split('\n\n').find((b) => b.includes('branch refs/heads/keel/e2e-two')) ?? '')?.[1];
    assert.ok(path, listed);
    rig.server.load({ turns: [reply.text('Nothing to change here.')] });
    await rig.chat.send('look around in two');
    await rig.chat.byRole('assistant').filter({ hasText: 'Nothing to change here.' }).waitFor({ timeout: TIMEOUT });

    await rig.chat.frame.getByTestId('show-sessions').click();
    const row = rig.chat.frame.locator('[data-testid="session-row"]').filter({ hasText: 'look around in two' });
    await row.hover();
    await row.getByTestId('session-delete').click();
    const dialog = rig.page.locator('.monaco-dialog-box');
    await dialog.filter({ hasText: 'Delete the conversation' }).waitFor({ timeout: TIMEOUT });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.filter({ hasText: 'worked in a worktree' }).waitFor({ timeout: TIMEOUT });
    await dialog.getByRole('button', { name: 'Remove worktree and branch' }).click();
    const deadline = Date.now() + TIMEOUT;
    while (existsSync(path) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!existsSync(path), 'the worktree folder is gone');
    assert.strictEqual(git(rig.workspace, 'branch', '--list', 'keel/e2e-two').trim(), '', 'and its branch, as chosen');
    await row.waitFor({ state: 'detached', timeout: TIMEOUT });
  });
});
