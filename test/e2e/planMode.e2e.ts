/// <reference types="mocha" />
// Plan mode as a person meets it in code-server: "Keel: Plan…" from the palette asks for the
// task, the view and the status bar say plan mode, the plan opens as a file and is edited
// there, "Execute plan" sends the edited text in act mode, the steps show as a live
// checklist while the agent works, and its writes still ask for approval.
import * as assert from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const ADDED = '3. Tell the person about callers';

// Steps last, so a line typed at the end of the file is a step.
const PLAN = [
  '## Goal',
  'Make average() safe for empty lists.',
  '',
  '## Risks',
  'Callers that expect a throw.',
  '',
  '## Verification',
  'npm test',
  '',
  '## Steps',
  '1. Change average in src/math.ts',
  '2. Add a note in NOTES.md',
].join('\n');

function lastUserText(server: ScriptedServer): string {
  const messages = server.requests.at(-1)?.body.messages ?? [];
  const user = messages.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

describe('plan mode in code-server', () => {
  const rig = useChatRig();

  it('plans from the palette, executes the plan as edited in its editor, and shows the steps as a live checklist', async () => {
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: 'src/math.ts' }),
        reply.text(PLAN),
        { ...reply.tool('write', { file_path: 'NOTES.md', content: 'average() of [] is 0\n' }), match: { lastUserIncludes: ADDED } },
        reply.text('Stopped: the note was not approved.'),
      ],
    });
    const page = rig.page;
    const widget = page.locator('.quick-input-widget');

    // The palette command asks for the task in an input box.
    await page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('input').fill('>Keel: Plan…');
    await widget.locator('.monaco-list-row', { hasText: 'Keel: Plan…' }).first().waitFor({ timeout: TIMEOUT });
    await widget.locator('input').press('Enter');
    await widget.locator('.quick-input-title', { hasText: 'Keel: Plan' }).waitFor({ timeout: TIMEOUT });
    await widget.locator('input').fill('Make average safe for empty lists');
    await widget.locator('input').press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });

    // Plan mode shows in the view (banner, switch) and in the status bar.
    await rig.chat.frame.getByTestId('plan-banner').waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.frame.getByTestId('mode-plan').getAttribute('aria-pressed'), 'true');
    await page.locator('.statusbar-item', { hasText: 'Keel: Plan mode' }).first().waitFor({ timeout: TIMEOUT });
    const actions = rig.chat.frame.getByTestId('plan-actions');
    await actions.waitFor({ timeout: TIMEOUT });
    await actions.getByText('2 steps').waitFor({ timeout: TIMEOUT });
    assert.match(JSON.stringify(rig.server.requests[0]?.body.messages[0]), /plan mode/);

    // Open plan: a real editor tab on the plan's file; the person adds a step and does not save.
    await rig.chat.frame.getByTestId('plan-open').click();
    const tab = page.locator('.tabs-container .tab', { hasText: 'plan-1.md' });
    await tab.waitFor({ timeout: TIMEOUT });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: '2. Add a note in NOTES.md' }).waitFor({ timeout: TIMEOUT });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(ADDED);
    await editor.locator('.view-lines', { hasText: ADDED }).waitFor({ timeout: TIMEOUT });

    // Execute plan: the edited text is the task, in act mode; the write it leads to still asks.
    await rig.chat.frame.getByTestId('plan-execute').click();
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    assert.match(lastUserText(rig.server), /Execute this plan[\s\S]*3\. Tell the person about callers/);
    assert.ok(JSON.stringify(rig.server.requests.at(-1)?.body.tools).includes('"write"'), 'act mode offers write');
    // The person's bubble names the plan and folds it; Keel's instructions stay with the model.
    const bubble = rig.chat.byRole('user').last();
    await bubble.getByTestId('plan-execution').waitFor({ timeout: TIMEOUT });
    const shown = await bubble.innerText();
    assert.match(shown, /Executing plan: Make average\(\) safe for empty lists\./);
    assert.doesNotMatch(shown, /<plan>|Execute this plan/);
    assert.strictEqual(await bubble.locator('details').getAttribute('open'), null, 'the plan is folded');
    await rig.chat.frame.getByTestId('plan-banner').waitFor({ state: 'detached', timeout: TIMEOUT });

    // While the agent works, the plan's steps are an open checklist.
    const todos = rig.chat.frame.getByTestId('todo-panel');
    await todos.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await todos.getAttribute('open'), '', 'the checklist is unfolded during the run');
    assert.deepStrictEqual(
      (await todos.locator('li').allInnerTexts()).map((t) => t.trim()),
      ['Change average in src/math.ts', 'Add a note in NOTES.md', 'Tell the person about callers'],
    );

    await card.getByTestId('reject').click();
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Stopped: the note was not approved.');
    assert.strictEqual(existsSync(join(rig.workspace, 'NOTES.md')), false, 'a plan never pre-approves a write');
  });

  it('starts the task from the editor selection, sends the selected lines along, and leaves the cursor in the editor', async () => {
    await rig.chat.newChat();
    rig.server.load({ turns: [reply.text(PLAN)] });
    const page = rig.page;
    const widget = page.locator('.quick-input-widget');

    // Open src/math.ts and select its first two lines.
    await page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('input').fill('math.ts');
    await widget.locator('.monaco-list-row', { hasText: 'math.ts' }).first().waitFor({ timeout: TIMEOUT });
    await widget.locator('input').press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'export function sum' }).waitFor({ timeout: TIMEOUT });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');

    await page.keyboard.press('F1');
    await widget.locator('input').fill('>Keel: Plan…');
    await widget.locator('.monaco-list-row', { hasText: 'Keel: Plan…' }).first().waitFor({ timeout: TIMEOUT });
    await widget.locator('input').press('Enter');
    await widget.locator('.quick-input-title', { hasText: 'Keel: Plan' }).waitFor({ timeout: TIMEOUT });
    const input = widget.locator('input');
    assert.strictEqual(await input.inputValue(), 'In src/math.ts (lines 1-2): ');
    await input.press('End');
    await page.keyboard.type('explain sum');
    await input.press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });

    await rig.chat.frame.getByTestId('plan-actions').waitFor({ timeout: TIMEOUT });
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1));
    assert.match(sent, /In src\/math.ts \(lines 1-2\): explain sum/);
    assert.match(sent, /values\.reduce/, 'the selected lines went along as a mention');
    // The view showed the plan without taking the keyboard from the editor.
    const inEditor = await page.evaluate(() => document.activeElement?.closest('.monaco-editor') !== null);
    assert.ok(inEditor, 'focus stayed in the editor');
  });
});
