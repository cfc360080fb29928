/// <reference types="mocha" />
// A proposed edit in code-server, as a person meets it: the diff editor opens beside the
// chat without taking the cursor out of the composer, Accept in the chat writes the file,
// Reject leaves it byte for byte as it was.
import * as assert from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { untilFile } from './support/diskFiles.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const TEN = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].map((l) => `${l}\n`).join('');

/** The workbench tab of a Keel diff, found by its title. */
function diffTab(page: Page, name: string) {
  return page.locator('.tabs-container .tab', { hasText: `${name} (Keel: proposed)` });
}

describe('diff approvals in code-server', () => {
  const rig = useChatRig({ newChatEachTest: true, scratchDir: 'diff-e2e' });

  it('opens the diff while the cursor stays in the composer; Accept in the chat writes the file', async () => {
    const path = join(rig.scratch, 'accept.txt');
    writeFileSync(path, TEN);
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: 'diff-e2e/accept.txt' }),
        reply.tool('edit', { file_path: 'diff-e2e/accept.txt', old_string: 'three', new_string: 'THREE' }),
        reply.text('Edited as accepted.', { match: { lastToolResultIncludes: 'Edited diff-e2e/accept.txt' } }),
      ],
    });
    await rig.chat.send('shout three');

    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await diffTab(rig.page, 'accept.txt').waitFor({ timeout: TIMEOUT });
    // The diff editor shows both sides (the proposal's new line is there)...
    await rig.page.locator('.monaco-diff-editor .modified', { hasText: 'THREE' }).first().waitFor({ timeout: TIMEOUT });
    // ...and the keyboard still types into the composer.
    const focused = await rig.chat.composer().evaluate((element) => element.ownerDocument.hasFocus() && element.ownerDocument.activeElement === element);
    assert.strictEqual(focused, true, 'the composer keeps the focus');
    await rig.page.keyboard.type('still typing here');
    assert.strictEqual(await rig.chat.composer().inputValue(), 'still typing here');
    assert.strictEqual(readFileSync(path, 'utf8'), TEN, 'nothing is written before the decision');

    await card.getByTestId('approve').click();
    await untilFile(path, TEN.replace('three', 'THREE'));
    await rig.chat.byRole('assistant').filter({ hasText: 'Edited as accepted.' }).waitFor({ timeout: TIMEOUT });
    await diffTab(rig.page, 'accept.txt').waitFor({ state: 'detached', timeout: TIMEOUT });
    await rig.chat.composer().fill('');
  });

  it('Reject in the chat leaves the file byte for byte as it was', async () => {
    const path = join(rig.scratch, 'reject.txt');
    const original = Buffer.from('\uFEFFkeep\r\nthese bytes\r\nexactly', 'utf8');
    writeFileSync(path, original);
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: 'diff-e2e/reject.txt' }),
        reply.tool('write', { file_path: 'diff-e2e/reject.txt', content: 'something else\n' }),
        reply.text('Left it alone.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    await rig.chat.send('replace the file');

    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await diffTab(rig.page, 'reject.txt').waitFor({ timeout: TIMEOUT });
    await card.getByTestId('reject').click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Left it alone.' }).waitFor({ timeout: TIMEOUT });
    await diffTab(rig.page, 'reject.txt').waitFor({ state: 'detached', timeout: TIMEOUT });
    assert.ok(readFileSync(path).equals(original), 'the file on disk is unchanged');
  });
});
