import { describe, expect, it, vi } from 'vitest';
import type { ToolApprovalRequest } from '../../../src/protocol/toolApproval';
import { ChatStore } from '../../../webview/store/chatStore';
import { assistantMessage, snapshot, userMessage } from './webviewHarness';

function approval(id: string, overrides: Partial<ToolApprovalRequest> = {}): ToolApprovalRequest {
  return {
    id,
    toolCallId: `call-${id}`,
    tool: 'bash',
    category: 'command',
    summary: 'npm test',
    input: { command: 'npm test' },
    paths: [],
    protected: false,
    ...overrides,
  };
}

function storeWith(...messages: Parameters<ChatStore['upsertMessage']>[0][]): ChatStore {
  const store = new ChatStore();
  store.replace(snapshot({ messages }));
  return store;
}

describe('ChatStore', () => {
  it('tells only the streaming message’s subscribers about a delta', () => {
    const store = storeWith(userMessage('u1', 'hi'), assistantMessage('a1', 'Hel', 'streaming'));
    const onUser = vi.fn();
    const onAssistant = vi.fn();
    const onIds = vi.fn();
    const onMeta = vi.fn();
    store.subscribeMessage('u1', onUser);
    store.subscribeMessage('a1', onAssistant);
    store.subscribeIds(onIds);
    store.subscribeMeta(onMeta);
    const userBefore = store.getMessage('u1');

    store.textDelta('a1', 'lo');
    store.textDelta('a1', ' world');

    expect(onAssistant).toHaveBeenCalledTimes(2);
    expect(onUser).not.toHaveBeenCalled();
    expect(onIds).not.toHaveBeenCalled();
    expect(onMeta).not.toHaveBeenCalled();
    expect(store.getMessage('a1')?.parts).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(store.getMessage('u1')).toBe(userBefore);
  });

  it('starts a new part when the delta type changes (text after reasoning or a tool call)', () => {
    const store = storeWith({ id: 'a1', role: 'assistant', parts: [], status: 'streaming', createdAt: 1 });
    store.reasoningDelta('a1', 'Let me look');
    store.textDelta('a1', 'Found it');
    store.textDelta('a1', '.');
    expect(store.getMessage('a1')?.parts).toEqual([
      { type: 'reasoning', text: 'Let me look' },
      { type: 'text', text: 'Found it.' },
    ]);
  });

  it('shows a delta for a message it has not seen instead of dropping the text', () => {
    const store = storeWith();
    store.textDelta('late', 'partial');
    expect(store.getIds()).toEqual(['late']);
    expect(store.getMessage('late')).toMatchObject({ role: 'assistant', status: 'streaming' });
  });

  it('replaces everything on a snapshot and tells every affected subscriber', () => {
    const store = storeWith(userMessage('u1', 'old'), assistantMessage('a1', 'old answer'));
    store.addError({ code: 'internal', message: 'boom', retryable: false });
    const onOld = vi.fn();
    const onIds = vi.fn();
    store.subscribeMessage('a1', onOld);
    store.subscribeIds(onIds);

    store.replace(
      snapshot({
        session: { id: 's-2', title: 'Other chat' },
        messages: [userMessage('u9', 'new')],
        state: { running: true, mode: 'plan', approvalMode: 'yolo', model: 'm', queued: 2 },
      }),
    );

    expect(store.getIds()).toEqual(['u9']);
    expect(store.getMessage('a1')).toBeUndefined();
    expect(onOld).toHaveBeenCalledTimes(1);
    expect(onIds).toHaveBeenCalledTimes(1);
    const meta = store.getMeta();
    expect(meta.ready).toBe(true);
    expect(meta.session.title).toBe('Other chat');
    expect(meta.run).toMatchObject({ running: true, mode: 'plan', queued: 2 });
    expect(meta.errors).toEqual([]);
  });

  it('appends a new message to the order but replaces an existing one in place', () => {
    const store = storeWith(userMessage('u1', 'hi'));
    const onIds = vi.fn();
    store.subscribeIds(onIds);
    store.upsertMessage(assistantMessage('a1', '', 'streaming'));
    store.upsertMessage(assistantMessage('a1', 'done now'));
    expect(store.getIds()).toEqual(['u1', 'a1']);
    expect(onIds).toHaveBeenCalledTimes(1);
    expect(store.getMessage('a1')?.status).toBe('done');
  });

  it('follows a tool call from use to result', () => {
    const store = storeWith(assistantMessage('a1', 'Running tests', 'streaming'));
    store.addToolUse({
      messageId: 'a1',
      toolCallId: 't1',
      name: 'bash',
      input: { command: 'npm test' },
      display: { title: 'bash', summary: 'npm test', icon: 'terminal', details: { kind: 'command', command: 'npm test' } },
      state: 'awaitingApproval',
    });
    store.setToolState({ toolCallId: 't1', state: 'running' });
    expect(store.getMessage('a1')?.parts[1]).toMatchObject({ type: 'toolCall', state: 'running' });

    store.setToolResult({ toolCallId: 't1', name: 'bash', state: 'error', isError: true, output: '1 failed', truncated: false });
    expect(store.getMessage('a1')?.parts[1]).toMatchObject({
      type: 'toolCall',
      state: 'error',
      result: { output: '1 failed', isError: true, truncated: false },
    });
  });

  it('shows a result whose call it does not know as a tool message of its own', () => {
    const store = storeWith();
    store.setToolResult({ toolCallId: 'gone', name: 'read', state: 'done', isError: false, output: 'x', truncated: false });
    const [id] = store.getIds();
    expect(store.getMessage(id ?? '')).toMatchObject({ role: 'tool', parts: [{ type: 'toolResult', output: 'x' }] });
  });

  it('clears the retry note when the model answers again', () => {
    const store = storeWith(assistantMessage('a1', '', 'streaming'));
    store.setRetry({ attempt: 2, maxAttempts: 5, error: '429' });
    expect(store.getMeta().retry).toMatchObject({ attempt: 2 });
    store.textDelta('a1', 'ok');
    expect(store.getMeta().retry).toBeNull();
  });

  it('finds the newest user message for Retry', () => {
    const store = storeWith(userMessage('u1', 'first'), assistantMessage('a1', 'x'), userMessage('u2', 'second'));
    expect(store.lastUserMessage()?.id).toBe('u2');
  });

  describe('approvals', () => {
    it('shows the card and resolves the host’s request with the answer', async () => {
      const store = storeWith();
      const answer = store.openApproval(approval('ap1'), new AbortController().signal);
      expect(store.getMeta().approvals.map((request) => request.id)).toEqual(['ap1']);

      store.answerApproval('ap1', { approved: false, reason: 'not now' });

      await expect(answer).resolves.toEqual({ approved: false, reason: 'not now' });
      expect(store.getMeta().approvals).toEqual([]);
    });

    it('removes the card when the host withdraws the request', async () => {
      const store = storeWith();
      const controller = new AbortController();
      const answer = store.openApproval(approval('ap1'), controller.signal);
      controller.abort(new Error('run stopped'));
      await expect(answer).rejects.toThrow('run stopped');
      expect(store.getMeta().approvals).toEqual([]);
    });

    it('keeps an answer given to a card from a snapshot until the host re-sends its request', async () => {
      const store = new ChatStore();
      store.replace(snapshot({ pendingApprovals: [approval('ap1')] }));
      expect(store.getMeta().approvals).toHaveLength(1);

      store.answerApproval('ap1', { approved: true, scope: 'once' });
      expect(store.getMeta().approvals).toEqual([]);

      const answer = store.openApproval(approval('ap1'), new AbortController().signal);
      await expect(answer).resolves.toEqual({ approved: true, scope: 'once' });
      expect(store.getMeta().approvals).toEqual([]);
    });

    it('keeps requests that are still open across a snapshot', () => {
      const store = storeWith();
      void store.openApproval(approval('ap1'), new AbortController().signal);
      store.replace(snapshot({ pendingApprovals: [approval('ap2')] }));
      expect(store.getMeta().approvals.map((request) => request.id).sort()).toEqual(['ap1', 'ap2']);
    });
  });
});

describe('message order with a queue', () => {
  it('puts a new answer before queued prompts, as the host does', () => {
    const store = new ChatStore();
    const msg = (id: string, status: 'queued' | 'streaming' | 'done', role: 'user' | 'assistant' = 'user') => ({
      id,
      role,
      parts: [{ type: 'text' as const, text: id }],
      status,
      createdAt: 0,
    });
    store.upsertMessage(msg('u1', 'done'));
    store.upsertMessage(msg('q1', 'queued'));
    store.upsertMessage(msg('q2', 'queued'));
    store.upsertMessage(msg('a1', 'streaming', 'assistant'));
    store.textDelta('a2', 'more');
    expect(store.getIds()).toEqual(['u1', 'a1', 'a2', 'q1', 'q2']);
  });
});
