import { describe, expect, it } from 'vitest';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { hostEvents } from '../../../src/protocol/hostEvents';
import { snapshotSchema } from '../../../src/protocol/sessionState';
import type { ToolCallPart } from '../../../src/protocol/uiMessage';
import { ConversationState } from '../../../src/chat/conversations/conversationState';
import type { EventSink } from '../../../src/chat/conversations/eventSink';
import { userUiMessage } from '../../../src/chat/conversations/uiMessages';

interface Sent {
  event: string;
  data: unknown;
}

/** A state whose events are recorded and checked against the protocol's schemas. */
function setup() {
  const sent: Sent[] = [];
  const sink: EventSink = {
    emit(event, data) {
      const schema = hostEvents[event];
      expect(schema.safeParse(data).success, `event ${event} matches its schema`).toBe(true);
      sent.push({ event, data: structuredClone(data) });
    },
  };
  let id = 0;
  const state = new ConversationState(sink, { now: () => 1000, newId: (kind) => `${kind}-${++id}` });
  return { state, sent, names: () => sent.map((s) => s.event) };
}

const turn = (n: number): ProjectEvent => ({ type: 'turn_start', turn: n });

describe('ConversationState', () => {
  it('streams a turn into one message, then replaces it once with the final content', () => {
    const { state, sent, names } = setup();
    state.beginRun('custom/m');
    const never = () => false;
    state.apply(turn(1), never);
    state.apply({ type: 'reasoning_delta', text: 'hmm' }, never);
    state.apply({ type: 'text_delta', text: 'Hel' }, never);
    state.apply({ type: 'text_delta', text: 'lo' }, never);
    state.apply({ type: 'message', id: 's1', message: { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'Hello' }] } }, never);
    // The final content equals what streamed: only the status goes out (a patch, not the message again).
    expect(names()).toEqual(['message', 'reasoningDelta', 'textDelta', 'textDelta', 'messagePatch']);
    const [created, , , , final] = sent;
    expect(created!.data).toMatchObject({ message: { id: 'assistant-1', status: 'streaming', model: 'custom/m', parts: [] } });
    expect(final!.data).toEqual({ messageId: 'assistant-1', status: 'done' });
    expect(state.messages()[0]).toMatchObject({ id: 'assistant-1', status: 'done', parts: [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'Hello' }] });
    expect(state.messages()).toHaveLength(1);
  });

  it('sends the rules in effect for each request, keeps them for a reloaded view, and forgets them with the conversation', () => {
    const { state, sent } = setup();
    state.apply(
      {
        type: 'context',
        sections: [{ id: 'rules', title: 'Rules', tokens: 900, budget: 4000, cut: false }],
        rules: [
          { path: '/w/AGENTS.md', display: 'AGENTS.md', scope: 'workspace', tokens: 800, status: 'included' },
          { path: '/w/src/api/AGENTS.md', display: 'src/api/AGENTS.md', scope: 'nested', appliesTo: 'src/api', tokens: 100, status: 'cut' },
        ],
      },
      () => false,
    );
    const rules = [
      { display: 'AGENTS.md', scope: 'workspace', status: 'included' },
      { display: 'src/api/AGENTS.md', scope: 'nested', appliesTo: 'src/api', status: 'cut' },
    ];
    expect(sent).toEqual([{ event: 'rules', data: { rules } }]);
    expect(snapshotSchema.parse(state.snapshot([])).rules).toEqual(rules);

    state.replace([], { id: null, title: null }, null, []);
    expect(snapshotSchema.parse(state.snapshot([])).rules).toBeUndefined();
  });

  it('tells the view when the oldest part of the conversation was left out to fit the model', () => {
    const { state, sent } = setup();
    state.apply(
      { type: 'context_trimmed', attempt: 2, maxAttempts: 3, droppedMessages: 14, shortenedResults: 3, error: 'prompt is too long: 210000 tokens > 200000 maximum' },
      () => false,
    );
    expect(sent).toEqual([{ event: 'contextTrimmed', data: { attempt: 2, maxAttempts: 3, droppedMessages: 14, shortenedResults: 3 } }]);
  });

  it('mid-stream snapshots hold what streamed so far', () => {
    const { state } = setup();
    state.beginRun('m');
    state.apply(turn(1), () => false);
    state.apply({ type: 'text_delta', text: 'partial ans' }, () => false);
    const snapshot = snapshotSchema.parse(state.snapshot([]));
    expect(snapshot.messages[0]).toMatchObject({ status: 'streaming', parts: [{ type: 'text', text: 'partial ans' }] });
  });

  it('tracks a tool call through approval to its result', () => {
    const { state, sent, names } = setup();
    const never = () => false;
    state.beginRun('m');
    state.apply(turn(1), never);
    state.apply({ type: 'text_delta', text: 'Writing.' }, never);
    state.apply(
      {
        type: 'message',
        id: 's1',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Writing.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'write', input: { file_path: 'a.ts', content: 'x' } }] },
      },
      never,
    );
    state.apply({ type: 'tool_use', toolCallId: 'c1', name: 'write', input: { file_path: 'a.ts', content: 'x' } }, never);
    state.awaitingApproval('c1');
    state.apply({ type: 'approval', toolCallId: 'c1', name: 'write', category: 'write', approved: true, automatic: false, rule: 'ask' }, never);
    state.apply({ type: 'tool_result', toolCallId: 'c1', name: 'write', isError: false, output: 'Wrote a.ts' }, never);
    state.apply({ type: 'message', id: 's2', message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'write', output: { type: 'text', value: 'Wrote a.ts' } }] } }, never);
    expect(names()).toEqual(['message', 'textDelta', 'messagePatch', 'toolUse', 'toolState', 'toolState', 'toolResult']);
    expect(sent[3]!.data).toMatchObject({ messageId: 'assistant-1', toolCallId: 'c1', display: { summary: 'a.ts' }, state: 'running' });
    expect(sent.slice(4, 6).map((s) => s.data)).toEqual([
      { toolCallId: 'c1', state: 'awaitingApproval' },
      { toolCallId: 'c1', state: 'running' },
    ]);
    const part = state.messages()[0]!.parts.find((p): p is ToolCallPart => p.type === 'toolCall');
    expect(part).toMatchObject({ state: 'done', result: { output: 'Wrote a.ts', isError: false } });
  });

  it('marks rejected and cancelled calls, and calls that never ran get their card with the result', () => {
    const { state } = setup();
    let cancelled = false;
    state.beginRun('m');
    state.apply(turn(1), () => cancelled);
    state.apply(
      {
        type: 'message',
        id: 's1',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'r', toolName: 'bash', input: { command: 'ls' } },
            { type: 'tool-call', toolCallId: 'x', toolName: 'bash', input: { command: 'make' } },
          ],
        },
      },
      () => cancelled,
    );
    state.apply({ type: 'tool_use', toolCallId: 'r', name: 'bash', input: { command: 'ls' } }, () => cancelled);
    state.apply({ type: 'approval', toolCallId: 'r', name: 'bash', category: 'command', approved: false, automatic: false, rule: 'ask', reason: 'no' }, () => cancelled);
    state.apply({ type: 'tool_result', toolCallId: 'r', name: 'bash', isError: true, output: 'declined' }, () => cancelled);
    cancelled = true;
    state.apply({ type: 'tool_result', toolCallId: 'x', name: 'bash', isError: true, output: 'Cancelled' }, () => cancelled);
    const parts = state.messages()[0]!.parts as ToolCallPart[];
    expect(parts.map((p) => [p.toolCallId, p.state, p.display.summary])).toEqual([
      ['r', 'rejected', 'ls'],
      ['x', 'cancelled', 'make'],
    ]);
  });

  it('drops what a failed attempt streamed when the loop retries', () => {
    const { state, names } = setup();
    state.beginRun('m');
    state.apply(turn(1), () => false);
    state.apply({ type: 'text_delta', text: 'lost' }, () => false);
    state.apply({ type: 'retry', attempt: 1, maxAttempts: 5, error: '503', delayMs: 10.4 }, () => false);
    state.apply({ type: 'text_delta', text: 'kept' }, () => false);
    expect(names()).toEqual(['message', 'textDelta', 'messagePatch', 'retry', 'textDelta']);
    expect(state.messages()[0]!.parts).toEqual([{ type: 'text', text: 'kept' }]);
  });

  it('closes loose ends when a run fails or is cancelled', () => {
    const { state } = setup();
    state.beginRun('m');
    state.apply(turn(1), () => false);
    state.apply({ type: 'text_delta', text: 'half' }, () => false);
    state.finishRun({ cancelled: false, error: { code: 'model_unreachable', message: 'gone', retryable: true } });
    expect(state.messages()[0]).toMatchObject({ status: 'error', error: { code: 'model_unreachable', message: 'gone' } });

    state.beginRun('m');
    state.apply(turn(1), () => false);
    state.apply({ type: 'tool_use', toolCallId: 't', name: 'read', input: { file_path: 'a' } }, () => false);
    state.finishRun({ cancelled: true });
    const last = state.messages().at(-1)!;
    expect(last.status).toBe('cancelled');
    expect((last.parts[0] as ToolCallPart).state).toBe('cancelled');
  });

  it('keeps queued messages last and moves one up when it starts', () => {
    const { state } = setup();
    state.add(userUiMessage('u1', { text: 'first' }, 1, 'done'));
    state.beginRun('m');
    state.add(userUiMessage('u2', { text: 'second' }, 2, 'queued'));
    state.apply(turn(1), () => false);
    state.apply({ type: 'text_delta', text: 'answer' }, () => false);
    expect(state.messages().map((m) => m.id)).toEqual(['u1', 'assistant-1', 'u2']);
    state.finishRun({ cancelled: false });
    state.dequeue('u2');
    expect(state.messages().map((m) => [m.id, m.status])).toEqual([
      ['u1', 'done'],
      ['assistant-1', 'done'],
      ['u2', 'done'],
    ]);
  });

  it('sends run state and config only when they change', () => {
    const { state, names } = setup();
    state.setRun({ running: true });
    state.setRun({ running: true });
    state.setConfig({ modelConfigured: true, workspaceTrusted: true, problem: null });
    state.setConfig({ modelConfigured: true, workspaceTrusted: true, problem: null });
    expect(names()).toEqual(['state', 'config']);
  });
});
