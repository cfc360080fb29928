/// <reference types="mocha" />
// The host end of the bus in the real extension: frames that do not fit the protocol are
// answered with an error or dropped, and never reach a handler.
import * as assert from 'node:assert';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/version';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { MODEL, activateKeel, keelHomeForRun, setModelSettings } from './support/keelSetup';
import { until } from './support/waiting';

keelHomeForRun();

interface RawResponse {
  v: number;
  kind: string;
  id: string;
  ok: boolean;
  error?: { code: string; message: string };
}

function isResponse(frame: unknown, id: string): frame is RawResponse {
  return typeof frame === 'object' && frame !== null && 'kind' in frame && frame.kind === 'response' && 'id' in frame && frame.id === id;
}

describe('malformed frames at the host boundary', () => {
  let api: KeelTestApi;
  let server: ScriptedServer;
  let page: ChatPage;
  const raw: unknown[] = [];

  before(async () => {
    api = await activateKeel();
    server = await startScriptedServer();
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    page.page.transport.onMessage((frame) => raw.push(frame));
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  beforeEach(async () => {
    await page.newChat();
    server.load({ turns: [], fallback: reply.text('a handler ran after all') });
  });

  after(async () => {
    page?.close();
    await setModelSettings(undefined);
    await server?.close();
  });

  /** Posts a frame as a (broken) page would and returns the host's response to it. */
  async function post(frame: Record<string, unknown>, id: string): Promise<RawResponse> {
    page.page.transport.send(frame);
    await until(() => raw.some((f) => isResponse(f, id)), `a response to ${id}`);
    return raw.find((f): f is RawResponse => isResponse(f, id))!;
  }

  /**
   * Nothing reached session.send. A proper message sent after the frames is the barrier: the
   * host takes requests in order and runs messages one after another, so once the barrier's run
   * has ended, a frame that had reached the handler would be in the conversation before it.
   */
  async function assertNoRun(): Promise<void> {
    await page.sendAndSettle('barrier');
    const prompts = page.messages.filter((m) => m.role === 'user').map((m) => page.text(m));
    assert.deepStrictEqual(prompts, ['barrier'], 'no message was added');
    assert.strictEqual(server.requests.length, 1, 'the model was not called');
  }

  it('answers session.send with params of the wrong type with invalid_params', async () => {
    const response = await post({ v: PROTOCOL_VERSION, kind: 'request', id: 'bad-params', method: 'session.send', params: { text: 42 } }, 'bad-params');
    assert.strictEqual(response.ok, false);
    assert.strictEqual(response.error?.code, 'invalid_params');
    await assertNoRun();
  });

  it('answers params with unknown keys with invalid_params', async () => {
    const response = await post(
      { v: PROTOCOL_VERSION, kind: 'request', id: 'extra-key', method: 'session.send', params: { text: 'hi', approvalMode: 'yolo' } },
      'extra-key',
    );
    assert.strictEqual(response.error?.code, 'invalid_params');
    await assertNoRun();
  });

  it('answers a method that is not in the protocol with unknown_method', async () => {
    const response = await post({ v: PROTOCOL_VERSION, kind: 'request', id: 'no-such', method: 'shell.exec', params: { command: 'rm -rf /' } }, 'no-such');
    assert.strictEqual(response.error?.code, 'unknown_method');
  });

  it('refuses a link that is not http(s) before the handler sees it', async () => {
    const response = await post(
      { v: PROTOCOL_VERSION, kind: 'request', id: 'command-link', method: 'link.open', params: { url: 'command:workbench.action.terminal.new' } },
      'command-link',
    );
    assert.strictEqual(response.error?.code, 'invalid_params');
  });

  it('answers a request in another protocol version with version_mismatch', async () => {
    const response = await post({ v: PROTOCOL_VERSION + 1, kind: 'request', id: 'future', method: 'session.send', params: { text: 'hi' } }, 'future');
    assert.strictEqual(response.error?.code, 'version_mismatch');
    await assertNoRun();
  });

  it('drops frames that are not frames at all, and keeps working', async () => {
    page.page.transport.send('session.send hi');
    page.page.transport.send({ v: PROTOCOL_VERSION, kind: 'telepathy', id: 'x' });
    page.page.transport.send({ v: PROTOCOL_VERSION, kind: 'request', method: 'session.send', params: { text: 'no id' } });
    await assertNoRun();
    server.load({ turns: [reply.text('still answering')] });
    await page.sendAndSettle('a proper message');
    assert.strictEqual(page.text(page.last('assistant')), 'still answering');
  });
});
