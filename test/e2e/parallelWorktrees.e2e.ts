/// <reference types="mocha" />
// Two conversations at once, each in its own git worktree, in code-server with VS Code's
// default settings: both write the same file name with their own content while the person's
// checkout stays byte for byte as it was; both finish in the background (the sessions list
// says so); Review changes on one applies exactly the one accepted hunk to the checkout; and
// Discard on the other takes its worktree folder away. The scripted model holds each run's
// last answer behind a gate, so "both running at once" is a fact the test arranges, not a race.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const env = { ...process.env, GIT_AUTHOR_NAME: 'E2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
const FILE = 'par-e2e/same.txt';
const BASE = `${['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].join('\n')}\n`;
const FROM_A = BASE.replace('beta', 'beta from A').replace('iota', 'iota from A');
const FROM_B = BASE.replace('beta', 'beta from B').replace('iota', 'iota from B');

async function until(what: string, holds: () => boolean): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const bytesOf = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '(no file)');

describe('two conversations at once in two worktrees, in code-server', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, 'par-e2e'), { recursive: true });
      writeFileSync(join(workspace, FILE), BASE);
      git(workspace, 'init', '-q');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-q', '-m', 'base');
    },
    cleanup: ({ workspace }) => {
      rmSync(join(workspace, '.git'), { recursive: true, force: true });
      rmSync(join(workspace, 'par-e2e'), { recursive: true, force: true });
    },
  });

  const made: string[] = [];
  const lens = (scope: Locator, text: string): Locator => scope.locator('.codelens-decoration a, .codelens-decoration span', { hasText: text }).first();
  const row = (title: string): Locator => rig.chat.frame.getByTestId('session-row').filter({ hasText: title });
  const worktreeOf = (branch: string): string => {
    const listed = git(rig.workspace, 'worktree', 'list', '--porcelain');
    const path = /^worktree (.+)$/m.exec(listed.split('\n\n').find((b) => b.includes(`branch refs/heads/${branch}`)) ?? '')?.[1];
    assert.ok(path, listed);
    return path;
  };

  async function startInWorktree(name: string): Promise<string> {
    const input = rig.chat.composer();
    await input.click();
    await input.fill(`/worktree ${name}`);
    await input.press('Enter');
    await rig.chat.frame.getByTestId('worktree-branch').filter({ hasText: `keel/${name}` }).waitFor({ timeout: TIMEOUT });
    const path = worktreeOf(`keel/${name}`);
    made.push(path);
    return path;
  }

  async function openFromList(title: string): Promise<void> {
    await rig.chat.frame.getByTestId('show-sessions').click();
    await row(title).getByTestId('session-item').click();
    await rig.chat.byRole('user').filter({ hasText: title }).waitFor({ timeout: TIMEOUT });
  }

  it('both write same.txt in their own worktree, the checkout stays, Review applies one hunk and Discard removes the other', async function () {
    this.timeout(300_000);
    const checkout = join(rig.workspace, FILE);
    const A = 'write same.txt as alpha in A';
    const B = 'write same.txt as beta in B';
    rig.server.load({
      turns: [
        { ...reply.tool('read', { file_path: FILE }), match: { lastUserIncludes: A } },
        // A's write streams slowly: B's worktree is made and B starts while A's call is still on its way.
        { ...reply.tool('write', { file_path: FILE, content: FROM_A }, { delayMs: 40 }), match: { lastUserIncludes: A } },
        { ...reply.tool('read', { file_path: FILE }), match: { lastUserIncludes: B } },
        { ...reply.tool('write', { file_path: FILE, content: FROM_B }), match: { lastUserIncludes: B } },
        // The last answers wait at the server until the test lets them go, so both runs are live together.
        // (After a write an event rule adds its own user message, so these two go by order: the test approves B first.)
        reply.text('B wrote its same.txt.', { match: { lastToolResultIncludes: 'same.txt' }, gate: 'b-end' }),
        reply.text('A wrote its same.txt.', { match: { lastToolResultIncludes: 'same.txt' }, gate: 'a-end' }),
      ],
    });

    const pathA = await startInWorktree('par-a');
    await rig.chat.send(A);
    await until("A's write on its way from the model", () => rig.server.requests.length >= 2);
    await rig.chat.newChat();
    const pathB = await startInWorktree('par-b');
    assert.notStrictEqual(pathA, pathB);
    await rig.chat.send(B);

    // B asks in view; A asks in the background (the list says so).
    await rig.chat.approvalCard().waitFor({ timeout: TIMEOUT });
    await rig.chat.approvalCard().getByTestId('approve').click();
    await rig.chat.approvalCard().waitFor({ state: 'detached', timeout: TIMEOUT });
    await until("B's file in its worktree", () => bytesOf(join(pathB, FILE)) === FROM_B);
    await until("B's last request at the model", () => rig.server.requests.length === 5);
    await rig.chat.frame.getByTestId('show-sessions').click();
    await row(A).locator('[data-testid="session-activity"][data-activity="approval"]').waitFor({ timeout: TIMEOUT });
    await row(B).locator('[data-testid="session-activity"][data-activity="running"]').waitFor({ timeout: TIMEOUT });
    await row(A).getByTestId('session-item').click();
    await rig.chat.approvalCard().waitFor({ timeout: TIMEOUT });
    await rig.chat.approvalCard().getByTestId('approve').click();
    await until("A's file in its worktree", () => bytesOf(join(pathA, FILE)) === FROM_A);
    await until("A's last request at the model", () => rig.server.requests.length === 6);
    assert.strictEqual(bytesOf(checkout), BASE, "the person's checkout is unchanged while both run");

    // Both runs are live; the person moves on to a new chat and both finish out of view.
    await rig.chat.newChat();
    await rig.chat.frame.getByTestId('show-sessions').click();
    await row(A).locator('[data-testid="session-activity"][data-activity="running"]').waitFor({ timeout: TIMEOUT });
    await row(B).locator('[data-testid="session-activity"][data-activity="running"]').waitFor({ timeout: TIMEOUT });
    rig.server.open('a-end');
    rig.server.open('b-end');
    await row(A).locator('[data-testid="session-activity"][data-activity="finished"]', { hasText: 'Finished' }).waitFor({ timeout: TIMEOUT });
    await row(B).locator('[data-testid="session-activity"][data-activity="finished"]', { hasText: 'Finished' }).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(rig.server.pendingTurns(), 0);
    assert.ok(readFileSync(checkout).equals(Buffer.from(BASE)), "the person's checkout is byte for byte the same");
    assert.strictEqual(git(rig.workspace, 'status', '--porcelain', '--', 'par-e2e'), '', 'and git sees no change in it');
    assert.strictEqual(bytesOf(join(pathA, FILE)), FROM_A);
    assert.strictEqual(bytesOf(join(pathB, FILE)), FROM_B);

    // Review A: its diff shows; the first hunk accepted, the second rejected.
    await row(A).getByTestId('session-item').click();
    await rig.chat.byRole('assistant').filter({ hasText: 'A wrote its same.txt.' }).waitFor({ timeout: TIMEOUT });
    await rig.chat.frame.getByTestId('worktree-branch').filter({ hasText: 'keel/par-a' }).waitFor({ timeout: TIMEOUT });
    const widget = rig.page.locator('.quick-input-widget');
    await rig.chat.frame.getByTestId('worktree-review').click();
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('.monaco-list-row', { hasText: 'same.txt' }).first().click();
    const diff = rig.page.locator('.monaco-diff-editor', { hasText: 'iota from A' }).first();
    await diff.locator('.modified', { hasText: 'beta from A' }).first().waitFor({ timeout: TIMEOUT });
    await lens(diff, 'Accept hunk 1').click();
    await lens(diff, 'Hunk 1 accepted').waitFor({ timeout: TIMEOUT });
    assert.strictEqual(bytesOf(checkout), BASE, 'nothing is written while a hunk is undecided');
    await lens(diff, 'Reject hunk 2').click();
    const applied = Buffer.from(BASE.replace('beta', 'beta from A'));
    await until('exactly the accepted hunk in the checkout', () => existsSync(checkout) && readFileSync(checkout).equals(applied));
    assert.strictEqual(bytesOf(join(pathA, FILE)), FROM_A, "A's worktree keeps its own version");
    assert.strictEqual(bytesOf(join(pathB, FILE)), FROM_B, "B's worktree is untouched by A's review");

    // Discard B: its worktree folder goes; A's applied hunk stays in the checkout.
    await openFromList(B);
    await rig.chat.frame.getByTestId('worktree-branch').filter({ hasText: 'keel/par-b' }).waitFor({ timeout: TIMEOUT });
    await rig.chat.frame.getByTestId('worktree-discard').click();
    const dialog = rig.page.locator('.monaco-dialog-box');
    await dialog.filter({ hasText: 'Discard the worktree of this conversation?' }).waitFor({ timeout: TIMEOUT });
    await dialog.getByRole('button', { name: 'Discard worktree', exact: true }).click();
    await rig.page.locator('.monaco-dialog-box', { hasText: 'uncommitted work' }).waitFor({ timeout: TIMEOUT });
    await rig.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Remove with uncommitted work' }).click();
    await until("B's worktree folder to go", () => !existsSync(pathB));
    assert.ok(existsSync(join(pathA, FILE)), "A's worktree stays");
    assert.ok(readFileSync(checkout).equals(applied), 'the checkout keeps exactly the applied hunk');
  });

  after(() => {
    // The worktrees live outside the workspace; whatever the test left behind goes too.
    for (const path of made) rmSync(path, { recursive: true, force: true });
  });
});
