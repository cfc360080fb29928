/// <reference types="mocha" />
// Keel's sidebar chat in code-server, installed from the .vsix, talking to the scripted
// model over real HTTP: what a person types, sees, approves and stops.
import * as assert from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { reloadWindow, runCommand } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';

const STREAMED =
  'Streaming works: this answer arrives in small pieces, one after another, until it is complete. ' +
  'The view shows each piece as it comes, so the person reads along while the model is still writing. ' +
  'Only when the last piece is in does the message count as done.';

function lastToolResult(server: ScriptedServer): string {
  const messages = server.requests.at(-1)?.body.messages ?? [];
  const tool = messages.filter((m) => m.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
}

describe('Keel chat in code-server', () => {
  const rig = useChatRig({ newChatEachTest: true });

  it('streams the answer to a prompt into an assistant message', async () => {
    rig.server.load({ turns: [reply.text(STREAMED, { chunkSize: 6, delayMs: 60, match: { lastUserIncludes: 'How do you answer?' } })] });
    await rig.chat.send('How do you answer?');

    // While it streams, the message shows a part of the answer (status and text read together).
    const streaming = rig.chat.frame.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]');
    await streaming.waitFor({ timeout: 30_000 });
    const seen = await rig.chat.lastAssistant().evaluate((element) => ({
      status: element.getAttribute('data-status'),
      text: (element.querySelector('.message-body')?.textContent ?? '').trim(),
    }));
    assert.strictEqual(seen.status, 'streaming');
    assert.ok(seen.text.length < STREAMED.length, `a partial answer was on screen ("${seen.text}")`);

    assert.strictEqual(await rig.chat.finishedAnswer(), STREAMED);
    assert.strictEqual(await rig.chat.byRole('user').count(), 1);
  });

  it('runs a bash command after Approve and shows its output on the tool card', async () => {
    rig.server.load({
      turns: [
        reply.tool('bash', { command: 'echo "approved-output-$((6 * 7))"' }),
        reply.text('The command printed its line.', { match: { lastToolResultIncludes: 'approved-output-42' } }),
      ],
    });
    await rig.chat.send('run the command');

    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /bash/);
    assert.match(await card.innerText(), /approved-output/);
    await card.getByTestId('approve').click();

    await card.waitFor({ state: 'detached', timeout: 30_000 });
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The command printed its line.');
    await rig.chat.toolCard().and(rig.chat.frame.locator('[data-state="done"]')).waitFor({ timeout: 10_000 });
    assert.match(await rig.chat.toolOutput(), /approved-output-42/);
  });

  it('does not run a rejected command and passes the reason to the model', async () => {
    rig.server.load({
      turns: [
        reply.tool('bash', { command: 'touch rejected-marker.txt' }),
        reply.text('Fine, I will not create it.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    await rig.chat.send('create the marker file');

    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    await card.getByTestId('reject-reason').fill('not in this workspace');
    await card.getByTestId('reject').click();

    assert.strictEqual(await rig.chat.finishedAnswer(), 'Fine, I will not create it.');
    await rig.chat.toolCard().and(rig.chat.frame.locator('[data-state="rejected"]')).waitFor({ timeout: 10_000 });
    assert.strictEqual(existsSync(join(rig.workspace, 'rejected-marker.txt')), false, 'the command did not run');
    assert.match(lastToolResult(rig.server), /not in this workspace/);
  });

  it('Stop ends a long answer, keeps what arrived, and marks it stopped', async () => {
    rig.server.load({ turns: [{ text: { lorem: 2000 }, tokensPerSecond: 60 }] });
    await rig.chat.send('tell me a very long story');

    const streaming = rig.chat.frame.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]');
    await streaming.waitFor({ timeout: 30_000 });
    await rig.chat.frame.getByTestId('stop').click();

    const kept = await rig.chat.finishedAnswer('cancelled');
    assert.ok(kept.split(/\s+/).length > 3, `the partial answer stays on screen ("${kept.slice(0, 80)}")`);
    assert.ok(kept.split(/\s+/).length < 2000, 'the stream did not run to its end');
    await rig.chat.lastAssistant().locator('.message-note', { hasText: 'stopped' }).waitFor({ timeout: 10_000 });
    await rig.chat.frame.getByTestId('stop').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('shows the whole conversation again after a window reload', async () => {
    rig.server.load({ turns: [reply.text('First answer.'), reply.text('Second answer.')] });
    await rig.chat.send('first question');
    await rig.chat.finishedAnswer();
    await rig.chat.send('second question');
    await rig.chat.frame.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Second answer.' }).waitFor();
    const before = await rig.chat.transcript();
    assert.deepStrictEqual(before.map(([role]) => role), ['user', 'assistant', 'user', 'assistant']);

    await reloadWindow(rig.page);
    await rig.chat.open();
    await rig.chat.messages().nth(3).waitFor({ timeout: 30_000 });
    assert.deepStrictEqual(await rig.chat.transcript(), before);
  });

  it('shows the conversation again after the view was hidden and opened again', async () => {
    rig.server.load({ turns: [reply.text('Still here after hiding.')] });
    await rig.chat.send('are you still here?');
    await rig.chat.finishedAnswer();
    const before = await rig.chat.transcript();

    // Another view container takes the sidebar: Keel's page is torn down.
    await runCommand(rig.page, 'View: Show Explorer');
    await rig.chat.composer().waitFor({ state: 'detached', timeout: 30_000 });
    await rig.chat.open();
    assert.deepStrictEqual(await rig.chat.transcript(), before);

    // The sidebar closed and opened again.
    await runCommand(rig.page, 'View: Toggle Primary Side Bar Visibility');
    await rig.chat.composer().waitFor({ state: 'detached', timeout: 30_000 });
    await rig.chat.open();
    assert.deepStrictEqual(await rig.chat.transcript(), before);
  });
});
