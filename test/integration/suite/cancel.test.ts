/// <reference types="mocha" />
// Stopping a run: session.cancel ends a stream that is still coming (or never started) and
// what the model had written so far stays, in the view and in the stored conversation.
import * as assert from 'node:assert';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun } from './support/keelSetup';

keelHomeForRun();

const SLOW = 'These words arrive slowly, a few letters at a time, and the person stops them long before the end of this sentence.';

describe('stopping a run', () => {
  const chat = useConfiguredChat();

  it('session.cancel stops a stream mid-way and keeps the partial answer', async () => {
    chat.server.load({ turns: [reply.text(SLOW, { chunkSize: 4, delayMs: 150 })] });
    const from = chat.page.events.length;
    await chat.page.send('talk slowly');
    await chat.page
      .waitFor(() => chat.page.text(chat.page.last('assistant')).length >= 8, 'the first deltas of the reply')
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\n${JSON.stringify(chat.page.events.slice(from), null, 1).slice(0, 3000)}`);
      });

    const result = await chat.page.bus.request('session.cancel', {});
    assert.deepStrictEqual(result, { cancelled: true });
    await chat.page.runEnded(from);

    const assistant = chat.page.last('assistant');
    const partial = chat.page.text(assistant);
    assert.strictEqual(assistant?.status, 'cancelled');
    assert.ok(partial.length >= 8, 'the text that arrived is kept');
    assert.ok(partial.length < SLOW.length, 'the stream stopped before its end');
    assert.ok(SLOW.startsWith(partial), `the kept text is what the model sent: "${partial}"`);
    assert.strictEqual(chat.page.run?.running, false);

    // The stored conversation has it too: a resumed view shows the same partial answer.
    const sessionId = (chat.page.named('session').at(-1) as { id: string | null }).id;
    assert.ok(sessionId);
    await chat.page.newChat();
    const snapshots = chat.page.snapshots.length;
    await chat.page.bus.request('sessions.resume', { id: sessionId });
    await chat.page.waitFor(() => chat.page.snapshots.length > snapshots, 'the resumed snapshot');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), partial);
  });

  it('session.cancel ends a request the model never answers', async () => {
    chat.server.load({ turns: [reply.hang()] });
    const from = chat.page.events.length;
    const { messageId } = await chat.page.send('are you there?');
    await chat.page.waitFor(() => chat.server.requests.length === 1, 'the request to reach the model');
    await chat.page.waitFor(() => chat.page.run?.running === true, 'the run to be going');

    assert.deepStrictEqual(await chat.page.bus.request('session.cancel', {}), { cancelled: true });
    await chat.page.runEnded(from);
    assert.strictEqual(chat.page.text(chat.page.messages.find((m) => m.id === messageId)), 'are you there?', 'the question stays');
    assert.ok(!chat.page.messages.some((m) => m.role === 'assistant' && m.status === 'streaming'), 'nothing is left streaming');
  });

  it('session.cancel with nothing running says so', async () => {
    assert.deepStrictEqual(await chat.page.bus.request('session.cancel', {}), { cancelled: false });
  });
});
