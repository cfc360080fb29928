/// <reference types="mocha" />
// Stopping a run: session.cancel ends a stream that is still coming (or never started) and
// what the model had written so far stays, in the view and in the stored conversation.
import * as assert from 'node:assert';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { MODEL, activateKeel, keelHomeForRun, setModelSettings } from './support/keelSetup';

keelHomeForRun();

const SLOW = 'These words arrive slowly, a few letters at a time, and the person stops them long before the end of this sentence.';

describe('stopping a run', () => {
  let api: KeelTestApi;
  let server: ScriptedServer;
  let page: ChatPage;

  before(async () => {
    api = await activateKeel();
    server = await startScriptedServer();
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  beforeEach(async () => {
    await page.newChat();
  });

  after(async () => {
    page?.close();
    await setModelSettings(undefined);
    await server?.close();
  });

  it('session.cancel stops a stream mid-way and keeps the partial answer', async () => {
    server.load({ turns: [reply.text(SLOW, { chunkSize: 4, delayMs: 150 })] });
    const from = page.events.length;
    await page.send('talk slowly');
    await page
      .waitFor(() => page.text(page.last('assistant')).length >= 8, 'the first deltas of the reply')
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\n${JSON.stringify(page.events.slice(from), null, 1).slice(0, 3000)}`);
      });

    const result = await page.bus.request('session.cancel', {});
    assert.deepStrictEqual(result, { cancelled: true });
    await page.runEnded(from);

    const assistant = page.last('assistant');
    const partial = page.text(assistant);
    assert.strictEqual(assistant?.status, 'cancelled');
    assert.ok(partial.length >= 8, 'the text that arrived is kept');
    assert.ok(partial.length < SLOW.length, 'the stream stopped before its end');
    assert.ok(SLOW.startsWith(partial), `the kept text is what the model sent: "${partial}"`);
    assert.strictEqual(page.run?.running, false);

    // The stored conversation has it too: a resumed view shows the same partial answer.
    const sessionId = (page.named('session').at(-1) as { id: string | null }).id;
    assert.ok(sessionId);
    await page.newChat();
    const snapshots = page.snapshots.length;
    await page.bus.request('sessions.resume', { id: sessionId });
    await page.waitFor(() => page.snapshots.length > snapshots, 'the resumed snapshot');
    assert.strictEqual(page.text(page.last('assistant')), partial);
  });

  it('session.cancel ends a request the model never answers', async () => {
    server.load({ turns: [reply.hang()] });
    const from = page.events.length;
    const { messageId } = await page.send('are you there?');
    await page.waitFor(() => server.requests.length === 1, 'the request to reach the model');
    await page.waitFor(() => page.run?.running === true, 'the run to be going');

    assert.deepStrictEqual(await page.bus.request('session.cancel', {}), { cancelled: true });
    await page.runEnded(from);
    assert.strictEqual(page.text(page.messages.find((m) => m.id === messageId)), 'are you there?', 'the question stays');
    assert.ok(!page.messages.some((m) => m.role === 'assistant' && m.status === 'streaming'), 'nothing is left streaming');
  });

  it('session.cancel with nothing running says so', async () => {
    assert.deepStrictEqual(await page.bus.request('session.cancel', {}), { cancelled: false });
  });
});
