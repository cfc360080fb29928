/// <reference types="mocha" />
// The chat's host side in a real extension host: messages stream from the scripted model
// over HTTP, conversations are kept per workspace under KEEL_HOME and can be resumed, and an
// unconfigured model is an explicit error.
import * as assert from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { BusError } from '../../../src/protocol/busError';
import { useConfiguredChat } from './support/chatFixture';
import { MODEL, keelHomeForRun, setModelSettings, workspaceSessionsDir } from './support/keelSetup';
import { assistantTexts, request, userTexts } from './support/modelRequests';

keelHomeForRun();

const ANSWER = 'Hello from the scripted model, streamed over real HTTP in small pieces.';

describe('chat over the bus', () => {
  const chat = useConfiguredChat();

  it('streams a reply as deltas and ends with the final message', async () => {
    chat.server.load({ turns: [reply.text(ANSWER, { chunkSize: 5, delayMs: 60, match: { lastUserIncludes: 'say hello' } })] });
    const from = chat.page.events.length;
    const { messageId } = await chat.page.sendAndSettle('say hello');

    const user = chat.page.messages.find((m) => m.id === messageId);
    assert.strictEqual(chat.page.text(user), 'say hello');
    const assistant = chat.page.last('assistant');
    assert.ok(assistant, 'an assistant message arrived');
    const deltas = chat.page.events
      .slice(from)
      .filter((e) => e.name === 'textDelta' && (e.data as { messageId: string }).messageId === assistant.id);
    assert.ok(deltas.length >= 2, `the reply streamed in several deltas (got ${deltas.length})`);
    // The reply's status travels as a patch of that message (or with the whole message when it is new).
    const statuses = chat.page.events
      .slice(from)
      .flatMap((e) => {
        // The page records a `message` event as the message itself.
        const data = e.data as { id?: string; messageId?: string; status?: string };
        if (e.name === 'message' && data.id === assistant.id && data.status !== undefined) return [data.status];
        if (e.name === 'messagePatch' && data.messageId === assistant.id && data.status !== undefined) return [data.status];
        return [];
      });
    assert.strictEqual(statuses.at(-1), 'done', 'the last status sent for the reply is done');
    assert.strictEqual(chat.page.text(assistant), ANSWER);
    assert.deepStrictEqual(userTexts(request(chat.server, 0)).at(-1), 'say hello');
  });

  it('keeps the conversation under KEEL_HOME for this workspace and lists it', async () => {
    chat.server.load({ turns: [reply.text('stored answer')] });
    await chat.page.sendAndSettle('remember this conversation');
    const sessionId = (chat.page.named('session').at(-1) as { id: string | null } | undefined)?.id;
    assert.ok(sessionId, 'the conversation got an id once its first message was saved');

    const log = join(workspaceSessionsDir(), `${sessionId}.jsonl`);
    assert.ok(existsSync(log), `the session log is at ${log}`);
    const text = readFileSync(log, 'utf8');
    assert.match(text, /remember this conversation/);
    assert.match(text, /stored answer/);

    const listed = await chat.page.bus.request('sessions.list', {});
    const row = listed.sessions.find((s) => s.id === sessionId);
    assert.ok(row, 'sessions.list names the conversation');
    assert.ok(row.messageCount >= 2, `it counts both messages (got ${row.messageCount})`);
    assert.match(row.preview ?? row.title, /remember this conversation/);
    assert.strictEqual(listed.sessions[0]?.id, sessionId, 'newest first');
  });

  it('resumes a stored conversation: the view gets it back and the model gets its history', async () => {
    chat.server.load({ turns: [reply.text('the first answer'), reply.text('the second answer')] });
    await chat.page.sendAndSettle('the first question');
    const sessionId = (chat.page.named('session').at(-1) as { id: string | null }).id;
    assert.ok(sessionId);

    await chat.page.newChat();
    assert.strictEqual(chat.page.messages.length, 0, 'a new chat starts empty');

    const from = chat.page.snapshots.length;
    const resumed = await chat.page.bus.request('sessions.resume', { id: sessionId });
    assert.strictEqual(resumed.session.id, sessionId);
    await chat.page.waitFor(() => chat.page.snapshots.length > from, 'the snapshot of the resumed conversation');
    assert.deepStrictEqual(
      chat.page.messages.map((m) => [m.role, chat.page.text(m)]),
      [
        ['user', 'the first question'],
        ['assistant', 'the first answer'],
      ],
    );

    await chat.page.sendAndSettle('the second question');
    const second = request(chat.server, 1);
    assert.deepStrictEqual(userTexts(second), ['the first question', 'the second question']);
    assert.deepStrictEqual(assistantTexts(second), ['the first answer']);
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'the second answer');
  });

  it('rebuilds a reloaded page from the host: the same conversation, from one snapshot', async () => {
    chat.server.load({ turns: [reply.text('kept across the reload')] });
    await chat.page.sendAndSettle('before the reload');
    const before = chat.page.messages.map((m) => [m.role, chat.page.text(m), m.status]);
    chat.page = await chat.page.reload();
    assert.deepStrictEqual(
      chat.page.messages.map((m) => [m.role, chat.page.text(m), m.status]),
      before,
    );
  });

  it('sends the API key from KEEL_CUSTOM_API_KEY to a keel.baseUrl endpoint', async () => {
    chat.server.load({ apiKey: 'sk-integration', turns: [reply.text('authorized')] });
    process.env.KEEL_CUSTOM_API_KEY = 'sk-integration';
    try {
      await chat.page.sendAndSettle('with a key');
    } finally {
      delete process.env.KEEL_CUSTOM_API_KEY;
    }
    assert.strictEqual(request(chat.server, 0).headers.authorization, 'Bearer sk-integration');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'authorized');
  });

  describe('without a model', () => {
    after(async () => {
      await setModelSettings({ baseUrl: chat.server.baseURL, model: MODEL });
      await chat.page.waitFor(() => chat.page.config?.modelConfigured === true, 'the model to be configured again');
    });

    it('refuses session.send with model_not_configured and tells the view', async () => {
      await setModelSettings(undefined);
      await chat.page.waitFor(() => chat.page.config?.modelConfigured === false, 'the view to hear that no model is configured');
      chat.server.load({ turns: [] });
      const errorsBefore = chat.page.errors.length;

      await assert.rejects(chat.page.send('hello?'), (err: unknown) => {
        assert.ok(err instanceof BusError, `a BusError, got ${String(err)}`);
        assert.strictEqual(err.code, 'model_not_configured');
        assert.match(err.message, /Set API Key|keel\.model|Settings/, 'the message says how to configure one');
        return true;
      });
      assert.strictEqual(chat.server.requests.length, 0, 'nothing reached the endpoint');
      assert.strictEqual(chat.page.messages.length, 0, 'the message was not taken (it stays in the composer)');
      await chat.page.waitFor(() => chat.page.errors.length > errorsBefore, 'an error event for the view');
      assert.strictEqual(chat.page.errors.at(-1)?.code, 'model_not_configured');
    });
  });
});
