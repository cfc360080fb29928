/// <reference types="mocha" />
// Keel from the editor, as a person reaches for it: the lightbulb's "Fix with Keel" on a real
// TypeScript error fills a new conversation's composer with the problem, the code around it and
// the file; a selection sent with Ctrl+Alt+J joins what is being typed as a chip; the explorer's
// "Add to Keel Chat" brings the chat back (its page rebuilt) with the chips. Nothing is sent.
import * as assert from 'node:assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const BROKEN = ['export function total(values: number[]): number {', "  const label: number = 'sum';", '  return values.length + label;', '}', ''].join('\n');

/** Opens a workspace file by name with Quick Open and waits for its editor. */
async function openFile(page: Page, name: string, text: string) {
  await page.keyboard.press('F1');
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
  await widget.locator('input').fill(name);
  await widget.locator('.monaco-list-row', { hasText: name }).first().waitFor({ timeout: TIMEOUT });
  await widget.locator('input').press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor', { hasText: text }).first();
  await editor.waitFor({ timeout: TIMEOUT });
  return editor;
}

describe('Keel from the editor', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => writeFileSync(join(workspace, 'src', 'broken.ts'), BROKEN),
    cleanup: ({ workspace }) => rmSync(join(workspace, 'src', 'broken.ts'), { force: true }),
  });

  it("the lightbulb's Fix with Keel puts the TypeScript error, the code around it and the file into a new conversation", async function () {
    this.timeout(120_000);
    // A conversation already in view: the fix starts its own.
    rig.server.load({ turns: [reply.text('Hello there.')] });
    await rig.chat.send('hello');
    await rig.chat.finishedAnswer();

    const editor = await openFile(rig.page, 'broken.ts', 'const label');
    const squiggle = editor.locator('.squiggly-error').first();
    await squiggle.waitFor({ timeout: 60_000 });
    const box = await squiggle.boundingBox();
    assert.ok(box, 'the error is drawn');
    await rig.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The TypeScript server may answer "no code actions" while it is still starting: ask again, as a person would.
    const fix = rig.page.locator('.action-widget').getByText('Fix with Keel', { exact: true });
    let offered = false;
    for (let attempt = 0; attempt < 6 && !offered; attempt += 1) {
      await rig.page.keyboard.press('Escape');
      await rig.page.keyboard.press('Control+.');
      offered = await fix.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
    }
    assert.ok(offered, 'the lightbulb offers Fix with Keel');
    // The menu opens on its first entry (the quick fixes come first); Enter takes it, as a person does.
    await rig.page.locator('.action-widget .monaco-list-row.focused', { hasText: 'Fix with Keel' }).waitFor({ timeout: TIMEOUT });
    await rig.page.keyboard.press('Enter');

    const input = rig.chat.composer();
    await rig.chat.frame.getByTestId('mention-chip').nth(1).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.messages().count(), 0, 'a new conversation, and nothing sent');
    const text = await input.inputValue();
    assert.match(text, /^Fix this problem: src\/broken\.ts:2: error 2322 \(ts\): Type 'string' is not assignable to type 'number'/);
    const chips = await rig.chat.frame.getByTestId('mention-chip').allInnerTexts();
    assert.deepStrictEqual(chips.map((c) => c.trim()), ['src/broken.ts:1-5', 'src/broken.ts']);
    assert.strictEqual(rig.server.requests.length, 1, 'only the first conversation reached the model');
  });

  it('Ctrl+Alt+J adds the selected lines as a chip and keeps what was typed', async function () {
    this.timeout(90_000);
    const input = rig.chat.composer();
    await input.fill('Why does this throw?');
    assert.strictEqual(await input.inputValue(), 'Why does this throw?');
    const editor = await openFile(rig.page, 'math.ts', 'average');
    await editor.locator('.view-lines').click();
    await rig.page.keyboard.press('Control+Home');
    for (let i = 0; i < 4; i += 1) await rig.page.keyboard.press('ArrowDown');
    await rig.page.keyboard.press('Shift+ArrowDown');
    await rig.page.keyboard.press('Shift+ArrowDown');
    await rig.page.keyboard.press('Shift+End');
    await rig.page.keyboard.press('Control+Alt+j');

    const chip = rig.chat.frame.getByTestId('mention-chip').filter({ hasText: 'src/math.ts:5-7' });
    await chip.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await input.inputValue(), 'Why does this throw?');
  });

  it("the explorer's Add to Keel Chat adds the file and the folder as chips", async function () {
    this.timeout(90_000);
    await rig.chat.composer().fill('');
    await rig.page.keyboard.press('Control+Shift+E');
    const tree = rig.page.locator('.explorer-folders-view');
    await tree.waitFor({ timeout: TIMEOUT });
    const row = (name: string) => tree.locator('.monaco-list-row', { hasText: new RegExp(`^${name}$`) }).first();
    await row('test').waitFor({ timeout: TIMEOUT });
    // The "src" folder is open already (files were opened from it); pick a file in it and the "test" folder.
    await row('greet.ts').click();
    await row('test').click({ modifiers: ['Control'] });
    await row('test').click({ button: 'right' });
    // The menu takes the item under the pointer with Enter (a synthetic click lands before it is armed).
    await rig.page.locator('.monaco-menu .action-label', { hasText: 'Add to Keel Chat' }).hover();
    await rig.page.keyboard.press('Enter');
    const chips = rig.chat.frame.getByTestId('mention-chip');
    await chips.filter({ hasText: 'src/greet.ts' }).waitFor({ timeout: TIMEOUT });
    await chips.filter({ hasText: /^\s*test\s*$/ }).waitFor({ timeout: TIMEOUT });
  });
});
