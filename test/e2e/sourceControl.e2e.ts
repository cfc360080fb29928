/// <reference types="mocha" />
// Keel in source control, as a person meets it in code-server: the sparkle in the Source Control
// title streams a commit message for the staged change into the commit box, in the style of the
// repository's recent subjects; "Review Changes with Keel" opens a plan-mode conversation with
// the diff, and a finding's `file:line` opens that line in the editor.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { runCommand } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const MATH = 'src/math.ts';

function git(workspace: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Sample', '-c', 'user.email=sample@example.com', ...args], { cwd: workspace, stdio: 'ignore' });
}

describe('Keel in source control', () => {
  let original = '';
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      original = readFileSync(join(workspace, MATH), 'utf8');
      git(workspace, 'init', '-q', '-b', 'main');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-qm', 'feat(math): add sum and average');
      // One staged change, and one the commit message must not describe.
      writeFileSync(join(workspace, MATH), original.replace('return values.reduce', 'if (values.length === 0) return 0;\n  return values.reduce'));
      git(workspace, 'add', MATH);
      writeFileSync(join(workspace, 'README.md'), `${readFileSync(join(workspace, 'README.md'), 'utf8')}\nunstaged line\n`);
    },
    cleanup: ({ workspace }) => {
      rmSync(join(workspace, '.git'), { recursive: true, force: true });
      writeFileSync(join(workspace, MATH), original);
      writeFileSync(join(workspace, 'README.md'), readFileSync(join(workspace, 'README.md'), 'utf8').replace('\nunstaged line\n', ''));
    },
  });

  it('the Source Control sparkle streams a commit message for the staged change into the commit box', async function () {
    this.timeout(180_000);
    const page = rig.page;
    const message = 'fix(math): return 0 for the sum of an empty list';
    rig.server.load({ turns: [reply.text(message, { chunkSize: 4, tokensPerSecond: 20 })] });
    await page.keyboard.press('Control+Shift+G');
    const generate = page.locator('.action-label[aria-label="Generate Commit Message"]').first();
    await generate.waitFor({ timeout: 60_000 });
    await generate.click();

    // The box fills while the model writes: a part of the message shows before all of it.
    const box = page.locator('.scm-editor .view-lines').first();
    const seen = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const text = (await box.innerText()).replace(/[\s\u00a0]+/g, ' ').trim(); // wrapped lines read as one
      if (text) seen.add(text);
      if (text === message) break;
      await page.waitForTimeout(50);
    }
    assert.ok(seen.has(message), `the whole message arrived; the box showed: ${[...seen].join(' | ')}`);
    assert.ok([...seen].some((t) => t.length > 0 && t.length < message.length && message.startsWith(t)), 'a part of it showed first');

    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(sent, /feat\(math\): add sum and average/, 'the recent subjects went with it');
    assert.match(sent, /if \(values\.length === 0\) return 0;/, 'the staged change went with it');
    assert.doesNotMatch(sent, /unstaged line/, 'the unstaged change did not');
  });

  it('Review Changes with Keel opens a plan-mode review whose finding opens the line it names', async function () {
    this.timeout(180_000);
    const page = rig.page;
    await runCommand(page, 'Keel: Review Changes with Keel');

    const input = rig.chat.composer();
    await rig.chat.frame.getByTestId('mention-chip').first().waitFor({ timeout: TIMEOUT });
    assert.match(await input.inputValue(), /^Review these uncommitted changes\./);
    assert.deepStrictEqual((await rig.chat.frame.getByTestId('mention-chip').allInnerTexts()).map((c) => c.trim()), ['@git']);

    rig.server.load({ turns: [reply.text('1. `src/math.ts:6` — `average` still throws on an empty list while `sum` now returns 0.')] });
    await input.press('Enter');
    await rig.chat.finishedAnswer();
    const request = rig.server.requests.at(-1)?.body;
    const tools = (request?.tools ?? []).map((t: { function?: { name?: string } }) => t.function?.name);
    assert.ok(!tools.includes('write') && !tools.includes('bash'), `plan mode offers no writing tools: ${tools.join(', ')}`);
    assert.match(JSON.stringify(request?.messages ?? []), /return 0;/, 'the diff went with the review');

    await rig.chat.frame.locator('[data-file="src/math.ts"]').click();
    await page.locator('.tab.active', { hasText: 'math.ts' }).waitFor({ timeout: TIMEOUT });
    await page.locator('.statusbar-item', { hasText: /Ln 6, Col/ }).waitFor({ timeout: TIMEOUT });
  });

  it('with nothing uncommitted, Review Changes reviews the branch since it left main', async function () {
    this.timeout(180_000);
    const page = rig.page;
    git(rig.workspace, 'checkout', '-qb', 'feature');
    git(rig.workspace, 'commit', '-qam', 'fix(math): sum of nothing is 0');
    await runCommand(page, 'Keel: Review Changes with Keel');

    const input = rig.chat.composer();
    await rig.chat.frame.getByTestId('mention-chip').filter({ hasText: '@git:main...HEAD' }).waitFor({ timeout: TIMEOUT });
    assert.match(await input.inputValue(), /^Review the changes of the branch feature since it left main\./);
    rig.server.load({ turns: [reply.text('1. `src/math.ts:2` — fine.')] });
    await input.press('Enter');
    await rig.chat.finishedAnswer();
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(sent, /fix\(math\): sum of nothing is 0/, "the branch's commits went with it");
    assert.match(sent, /git diff main\.\.\.HEAD/);
  });
});

