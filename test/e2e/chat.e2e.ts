/// <reference types="mocha" />
// Keel's sidebar chat in code-server, installed from the .vsix, talking to the scripted
// model over real HTTP: what a person types, sees, approves and stops.
import * as assert from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { reloadWindow, runCommand } from './harness/workbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

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
  const { workspace } = e2eEnv();
  let server: ScriptedServer;
  let chat: ChatView;

  // Registered before useWorkbench's hooks, so the settings exist when the window opens.
  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, { baseURL: server.baseURL });
  });

  const wb = useWorkbench();

  before(async function () {
    this.timeout(90_000);
    chat = new ChatView(wb.page);
    await chat.open();
  });

  beforeEach(async () => {
    if (await chat.messages().count()) await chat.newChat();
  });

  after(async () => {
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('streams the answer to a prompt into an assistant message', async () => {
    server.load({ turns: [reply.text(STREAMED, { chunkSize: 6, delayMs: 60, match: { lastUserIncludes: 'How do you answer?' } })] });
    await chat.send('How do you answer?');

    // While it streams, the message shows a part of the answer (status and text read together).
    const streaming = chat.frame.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]');
    await streaming.waitFor({ timeout: 30_000 });
    const seen = await chat.lastAssistant().evaluate((element) => ({
      status: element.getAttribute('data-status'),
      text: (element.querySelector('.message-body')?.textContent ?? '').trim(),
    }));
    assert.strictEqual(seen.status, 'streaming');
    assert.ok(seen.text.length < STREAMED.length, `a partial answer was on screen ("${seen.text}")`);

    assert.strictEqual(await chat.finishedAnswer(), STREAMED);
    assert.strictEqual(await chat.byRole('user').count(), 1);
  });

  it('runs a bash command after Approve and shows its output on the tool card', async () => {
    server.load({
      turns: [
        reply.tool('bash', { command: 'echo "approved-output-$((6 * 7))"' }),
        reply.text('The command printed its line.', { match: { lastToolResultIncludes: 'approved-output-42' } }),
      ],
    });
    await chat.send('run the command');

    const card = chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /bash/);
    assert.match(await card.innerText(), /approved-output/);
    await card.getByTestId('approve').click();

    await card.waitFor({ state: 'detached', timeout: 30_000 });
    assert.strictEqual(await chat.finishedAnswer(), 'The command printed its line.');
    await chat.toolCard().and(chat.frame.locator('[data-state="done"]')).waitFor({ timeout: 10_000 });
    assert.match(await chat.toolOutput(), /approved-output-42/);
  });

  it('does not run a rejected command and passes the reason to the model', async () => {
    server.load({
      turns: [
        reply.tool('bash', { command: 'touch rejected-marker.txt' }),
        reply.text('Fine, I will not create it.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    await chat.send('create the marker file');

    const card = chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    await card.locator('[data-testid="reject-reason"] input').fill('not in this workspace');
    await card.getByTestId('reject').click();

    assert.strictEqual(await chat.finishedAnswer(), 'Fine, I will not create it.');
    await chat.toolCard().and(chat.frame.locator('[data-state="rejected"]')).waitFor({ timeout: 10_000 });
    assert.strictEqual(existsSync(join(workspace, 'rejected-marker.txt')), false, 'the command did not run');
    assert.match(lastToolResult(server), /not in this workspace/);
  });

  it('Stop ends a long answer, keeps what arrived, and marks it stopped', async () => {
    server.load({ turns: [{ text: { lorem: 2000 }, tokensPerSecond: 60 }] });
    await chat.send('tell me a very long story');

    const streaming = chat.frame.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]');
    await streaming.waitFor({ timeout: 30_000 });
    await chat.frame.getByTestId('stop').click();

    const kept = await chat.finishedAnswer('cancelled');
    assert.ok(kept.split(/\s+/).length > 3, `the partial answer stays on screen ("${kept.slice(0, 80)}")`);
    assert.ok(kept.split(/\s+/).length < 2000, 'the stream did not run to its end');
    await chat.lastAssistant().locator('.message-note', { hasText: 'stopped' }).waitFor({ timeout: 10_000 });
    await chat.frame.getByTestId('stop').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('shows the whole conversation again after a window reload', async () => {
    server.load({ turns: [reply.text('First answer.'), reply.text('Second answer.')] });
    await chat.send('first question');
    await chat.finishedAnswer();
    await chat.send('second question');
    await chat.frame.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Second answer.' }).waitFor();
    const before = await chat.transcript();
    assert.deepStrictEqual(before.map(([role]) => role), ['user', 'assistant', 'user', 'assistant']);

    await reloadWindow(wb.page);
    await chat.open();
    await chat.messages().nth(3).waitFor({ timeout: 30_000 });
    assert.deepStrictEqual(await chat.transcript(), before);
  });

  it('shows the conversation again after the view was hidden and opened again', async () => {
    server.load({ turns: [reply.text('Still here after hiding.')] });
    await chat.send('are you still here?');
    await chat.finishedAnswer();
    const before = await chat.transcript();

    // Another view container takes the sidebar: Keel's page is torn down.
    await runCommand(wb.page, 'View: Show Explorer');
    await chat.composer().waitFor({ state: 'detached', timeout: 30_000 });
    await chat.open();
    assert.deepStrictEqual(await chat.transcript(), before);

    // The sidebar closed and opened again.
    await runCommand(wb.page, 'View: Toggle Primary Side Bar Visibility');
    await chat.composer().waitFor({ state: 'detached', timeout: 30_000 });
    await chat.open();
    assert.deepStrictEqual(await chat.transcript(), before);
  });
});
