/// <reference types="mocha" />
// A conversation that waits for an approval while the person looks at another one, in
// code-server: the Keel icon in the activity bar carries the badge, the sessions list says
// "Waiting for approval", and opening it there shows the card; Accept finishes the run.
import * as assert from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const CONTENT = 'written while nobody looked\nsecond line\n';

async function untilFile(path: string, expected: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    if (existsSync(path) && readFileSync(path, 'utf8') === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.strictEqual(existsSync(path) ? readFileSync(path, 'utf8') : '(missing)', expected);
}

describe('background conversations in code-server', () => {
  const rig = useChatRig({ newChatEachTest: true, scratchDir: 'background-e2e' });

  it('shows the badge and "Waiting for approval"; opened from the list, Accept finishes the run and writes the file', async () => {
    const path = join(rig.scratch, 'later.md');
    rig.server.load({
      turns: [
        // The tool call streams slowly, so it arrives once the person is in a new chat.
        { ...reply.tool('write', { file_path: 'background-e2e/later.md', content: CONTENT }, { delayMs: 200 }), match: { lastUserIncludes: 'write the later note' } },
        reply.text('The later note is written.', { match: { lastToolResultIncludes: 'Created background-e2e/later.md' } }),
      ],
    });
    await rig.chat.send('write the later note');
    await rig.chat.newChat();

    const keelItem = rig.page.locator('.part.activitybar .action-item').filter({ has: rig.page.locator('a.action-label[aria-label^="Keel"]') });
    await keelItem.locator('.badge-content', { hasText: '1' }).waitFor({ timeout: TIMEOUT });
    await rig.page.locator('.notifications-toasts', { hasText: 'is waiting for your approval' }).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.approvalCard().count(), 0, 'the new chat in view shows no card of the other conversation');
    assert.strictEqual(existsSync(path), false, 'nothing is written while nobody answers');

    await rig.chat.frame.getByTestId('show-sessions').click();
    const row = rig.chat.frame.getByTestId('session-row').filter({ hasText: 'write the later note' });
    await row.locator('[data-testid="session-activity"][data-activity="approval"]', { hasText: 'Waiting for approval' }).waitFor({ timeout: TIMEOUT });
    await row.getByTestId('session-item').click();

    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await card.getByTestId('approve').click();
    await untilFile(path, CONTENT);
    await rig.chat.byRole('assistant').filter({ hasText: 'The later note is written.' }).waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(readFileSync(path), Buffer.from(CONTENT, 'utf8'));
    await keelItem.locator('.badge-content').waitFor({ state: 'hidden', timeout: TIMEOUT });
  });

  it('"Keel: Open Session…" says which conversation waits; the notice\'s Open brings it into view, where Reject writes nothing', async () => {
    const path = join(rig.scratch, 'never.md');
    rig.server.load({
      turns: [
        { ...reply.tool('write', { file_path: 'background-e2e/never.md', content: 'no\n' }, { delayMs: 200 }), match: { lastUserIncludes: 'write the never note' } },
        reply.text('Left it unwritten.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    await rig.chat.send('write the never note');
    await rig.chat.newChat();
    const toast = rig.page.locator('.notification-toast', { hasText: 'is waiting for your approval' }).filter({ hasText: 'write the never note' });
    await toast.waitFor({ timeout: TIMEOUT });

    const widget = rig.page.locator('.quick-input-widget');
    await rig.page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('input').fill('>Keel: Open Session');
    await widget.locator('.monaco-list-row', { hasText: 'Keel: Open Session' }).first().waitFor({ timeout: TIMEOUT });
    await widget.locator('input').press('Enter');
    await widget.locator('.monaco-list-row', { hasText: 'write the never note' }).filter({ hasText: 'Waiting for approval' }).waitFor({ timeout: TIMEOUT });
    await rig.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });

    await toast.hover();
    await toast.getByRole('button', { name: 'Open' }).click();
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await rig.chat.byRole('user').filter({ hasText: 'write the never note' }).waitFor({ timeout: TIMEOUT });
    await card.getByTestId('reject').click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Left it unwritten.' }).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(existsSync(path), false, 'a rejected write leaves nothing on disk');
  });
});
