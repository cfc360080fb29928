import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBusError } from '../../../src/protocol/busError';
import type { ToolCallPart } from '../../../src/protocol/uiMessage';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';
import type { ChatRig } from './chatHarness';

const rigs = useChatRig();
let rig: ChatRig | undefined;

function configured(): ChatRig {
  rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
  return rig;
}

const toolCalls = (parts: readonly { type: string }[]) => parts.filter((p): p is ToolCallPart => p.type === 'toolCall');

describe('chat controller over the bus', () => {
  it('without a model: the snapshot says so and a send is refused with model_not_configured', async () => {
    rig = rigs.open({});
    const page = rig.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    expect(page.store.snapshot!.config).toMatchObject({ modelConfigured: false, workspaceTrusted: true });
    const sent = page.bus.request('session.send', { text: 'hello' });
    await expect(sent).rejects.toSatisfy((err: unknown) => isBusError(err, 'model_not_configured'));
    await settle();
    expect(page.store.named('error')).toEqual([expect.objectContaining({ code: 'model_not_configured' })]);
    expect(page.store.messages).toEqual([]);
  });

  it('streams an answer; the page built from events equals the host state; the session resumes the same', async () => {
    const chat = configured();
    rigs.server.load({ turns: [reply.text('Hello from the scripted model.', { chunkSize: 4, usage: { prompt_tokens: 20, completion_tokens: 7 } })] });
    const page = chat.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    const { messageId, queued } = await page.bus.request('session.send', { text: 'Say hello' });
    expect(queued).toBe(false);
    await until(() => !chat.controller.isRunning && page.store.named('state').some((s) => (s as { running: boolean }).running === false), 'run end');
    await settle();
    const hostMessages = chat.controller.messages();
    expect(page.store.messages).toEqual(hostMessages);
    expect(hostMessages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(hostMessages[0]!.id).toBe(messageId);
    expect(hostMessages[1]!.parts).toEqual([{ type: 'text', text: 'Hello from the scripted model.' }]);
    expect(page.store.named('textDelta').length).toBeGreaterThan(0);
    expect(page.store.named('usage').at(-1)).toMatchObject({ inputTokens: 20, outputTokens: 7, contextTokens: 27 });
    const session = page.store.named('session').at(-1) as { id: string; title: string };
    expect(session.title).toBe('Say hello');

    const list = await page.bus.request('sessions.list', {});
    expect(list.sessions.map((s) => s.id)).toEqual([session.id]);

    // A new conversation, then back to this one: same text, session ids as message ids.
    await page.bus.request('session.new', {});
    await settle();
    expect(page.store.messages).toEqual([]);
    await page.bus.request('sessions.resume', { id: session.id });
    await settle();
    expect(page.store.messages.map((m) => [m.role, m.parts])).toEqual(hostMessages.map((m) => [m.role, m.parts]));
  });

  it('asks for approval, survives a reload while waiting, and applies the answer', async () => {
    const chat = configured();
    rigs.server.load({
      turns: [
        reply.tool('write', { file_path: 'notes.md', content: '# Notes\n' }),
        reply.text('Wrote the notes.'),
      ],
    });
    const first = chat.openPage();
    await until(() => first.store.snapshot !== undefined, 'snapshot');
    await first.bus.request('session.send', { text: 'write notes' });
    await until(() => first.approvals.length === 1, 'approval request');
    expect(first.approvals[0]).toMatchObject({ tool: 'write', category: 'write', change: { kind: 'create', added: 1, displayPath: 'notes.md' } });

    // The page reloads: one snapshot with the pending approval, then the request again.
    let answered = false;
    const second = first.reload(() => {
      answered = true;
      return { approved: true, scope: 'once' };
    });
    await until(() => answered, 'approval asked again');
    expect(second.store.snapshot!.pendingApprovals.map((a) => a.id)).toEqual([first.approvals[0]!.id]);
    const card = toolCalls(second.store.snapshot!.messages.flatMap((m) => m.parts));
    expect(card.map((c) => c.state)).toEqual(['awaitingApproval']);
    await until(() => !chat.controller.isRunning, 'run end');
    await settle();
    expect(readFileSync(join(chat.workspace, 'notes.md'), 'utf8')).toBe('# Notes\n');
    expect(second.store.messages).toEqual(chat.controller.messages());
    const calls = toolCalls(second.store.messages.flatMap((m) => m.parts));
    expect(calls.map((c) => c.state)).toEqual(['done']);
    expect(second.store.messages.at(-1)!.parts).toEqual([{ type: 'text', text: 'Wrote the notes.' }]);
  });

  it('stop: the waiting approval is rejected, the run cancelled, queued messages dropped', async () => {
    const chat = configured();
    rigs.server.load({ turns: [reply.tool('bash', { command: 'echo hi' })], fallback: { text: 'never' } });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('session.send', { text: 'run it' });
    await until(() => page.approvals.length === 1, 'approval request');
    const second = await page.bus.request('session.send', { text: 'and then this' });
    expect(second.queued).toBe(true);
    await settle();
    expect(page.store.messages.at(-1)).toMatchObject({ id: second.messageId, status: 'queued' });
    const stopped = await page.bus.request('session.cancel', {});
    expect(stopped.cancelled).toBe(true);
    await until(() => !chat.controller.isRunning, 'run end');
    await settle();
    const calls = toolCalls(page.store.messages.flatMap((m) => m.parts));
    expect(calls.map((c) => c.state)).toEqual(['rejected']);
    expect(page.store.messages.find((m) => m.id === second.messageId)?.status).toBe('cancelled');
    expect(page.store.messages).toEqual(chat.controller.messages());
    expect(rigs.server.requests).toHaveLength(1);
  });

  it('runs queued messages in order', async () => {
    const chat = configured();
    rigs.server.load({ turns: [reply.text('one', { delayMs: 150 }), reply.text('two')] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    const a = await page.bus.request('session.send', { text: 'first' });
    const b = await page.bus.request('session.send', { text: 'second' });
    expect([a.queued, b.queued]).toEqual([false, true]);
    await until(() => rigs.server.requests.length === 2 && !chat.controller.isRunning, 'both runs');
    await settle();
    expect(page.store.messages.map((m) => [m.role, m.parts[0] && 'text' in m.parts[0] ? m.parts[0].text : ''])).toEqual([
      ['user', 'first'],
      ['assistant', 'one'],
      ['user', 'second'],
      ['assistant', 'two'],
    ]);
  });

  it('a failing model shows an error event and keeps the message in the session', async () => {
    const chat = configured();
    rigs.server.load({ turns: [reply.status(401)] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('session.send', { text: 'hello?' });
    await until(() => page.store.named('error').length > 0, 'error event');
    expect(page.store.named('error')[0]).toMatchObject({ code: 'auth_failed', retryable: false });
    await until(() => !chat.controller.isRunning, 'run end');
    const list = await page.bus.request('sessions.list', {});
    expect(list.sessions[0]).toMatchObject({ title: 'hello?', messageCount: 1 });
  });

  it('a hidden view posts nothing; the next page gets the whole state mid-stream', async () => {
    const chat = configured();
    rigs.server.load({ turns: [{ text: { lorem: 400 }, chunkSize: 3, tokensPerSecond: 2000 }] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('session.send', { text: 'write a lot' });
    await until(() => page.store.named('textDelta').length > 2, 'streaming');
    page.hide();
    const next = page.reload();
    await until(() => next.store.snapshot !== undefined, 'second snapshot');
    const streaming = next.store.snapshot!.messages.at(-1)!;
    expect(['streaming', 'done']).toContain(streaming.status);
    await until(() => !chat.controller.isRunning, 'run end');
    await settle();
    expect(next.store.messages).toEqual(chat.controller.messages());
  });
});
