import { describe, expect, it } from 'vitest';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import type { RulesRecord } from '../../../src/core/session/sessionRecords';
import { hostEvents } from '../../../src/protocol/hostEvents';
import { snapshotSchema } from '../../../src/protocol/sessionState';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { ConversationState } from '../../../src/chat/conversations/conversationState';
import type { EventSink } from '../../../src/chat/conversations/eventSink';

function setup() {
  const sent: { event: string; data: unknown }[] = [];
  const sink: EventSink = {
    emit(event, data) {
      expect(hostEvents[event].safeParse(data).success, `event ${event} matches its schema`).toBe(true);
      sent.push({ event, data: structuredClone(data) });
    },
  };
  let id = 0;
  const state = new ConversationState(sink, { now: () => 1000, newId: (kind) => `${kind}-${++id}` });
  return { state, sent };
}

const never = () => false;
const rules = (event: 'prompt_submit' | 'tool_result' | 'task_complete', id: string, toolCallId?: string): ProjectEvent => ({
  type: 'rules_fired',
  event,
  fired: [{ id, source: 'workspace', actions: [{ type: 'notify', text: `${id} says hi` }] }],
  ...(toolCallId ? { toolCallId } : {}),
});
const ruleIds = (m: UiMessage | undefined) => m?.rules?.map((r) => `${r.event}:${r.id}`);

describe('fired rules on the turn', () => {
  it('puts prompt rules on the answer, tool-result rules on the card\'s message, task rules on the last turn', () => {
    const { state, sent } = setup();
    state.beginRun('m');
    state.apply(rules('prompt_submit', 'style'), never);
    state.apply({ type: 'turn_start', turn: 1 }, never);
    state.apply({ type: 'tool_use', toolCallId: 'c1', name: 'edit', input: { file_path: 'a.sql' } }, never);
    state.apply({ type: 'tool_result', toolCallId: 'c1', name: 'edit', isError: false, output: 'ok' }, never);
    state.apply(rules('tool_result', 'sql', 'c1'), never);
    state.apply({ type: 'turn_start', turn: 2 }, never);
    state.apply({ type: 'text_delta', text: 'Done.' }, never);
    state.apply(rules('task_complete', 'bell'), never);
    const [first, second] = state.messages();
    expect(ruleIds(first)).toEqual(['prompt_submit:style', 'tool_result:sql']);
    expect(ruleIds(second)).toEqual(['task_complete:bell']);
    // Each change went out as a patch of that one message's rules, valid against the protocol.
    const last = sent.at(-1)!;
    expect(last.event).toBe('messagePatch');
    expect(hostEvents.messagePatch.safeParse(last.data).success).toBe(true);
    expect((last.data as { rules: UiMessage['rules'] }).rules?.[0]?.actions).toEqual([{ type: 'notify', text: 'bell says hi' }]);
    expect(snapshotSchema.safeParse(state.snapshot([])).success).toBe(true);
  });

  it('shows rules problems to the person as a configuration error', () => {
    const { state, sent } = setup();
    state.apply({ type: 'rule_problems', problems: ['/w/.keel/rules.json: rule "x": bad'] }, never);
    expect(sent).toEqual([{ event: 'error', data: { code: 'invalid_config', message: '/w/.keel/rules.json: rule "x": bad', retryable: false } }]);
  });

  it('puts logged rules back on their turns when a conversation is reopened', () => {
    const { state } = setup();
    const user: UiMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }], status: 'done', createdAt: 1 };
    const answer: UiMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'toolCall', toolCallId: 'c1', name: 'edit', input: {}, display: { title: 'edit', summary: 'a.sql', icon: 'edit', details: { kind: 'keyValue', entries: [] } }, state: 'done' }],
      status: 'done',
      createdAt: 2,
    };
    const final: UiMessage = { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'done' }], status: 'done', createdAt: 3 };
    state.replace([user, answer, final], { id: 's', title: null }, null, []);
    const record = (over: Partial<RulesRecord>): RulesRecord => ({
      type: 'rules',
      ts: '2026-01-01T00:00:00.000Z',
      event: 'tool_result',
      fired: [{ id: 'r', source: 'workspace', actions: [{ type: 'reminder', text: 't' }] }],
      ...over,
    });
    state.attachRules([
      record({ event: 'prompt_submit', messageId: 'u1', fired: [{ id: 'p', source: 'builtin', actions: [] }] }),
      record({ toolCallId: 'c1', fired: [{ id: 'sql', source: 'user', actions: [{ type: 'reminder', text: 't' }, { type: 'from_the_future', text: '?' }] }] }),
      record({ event: 'task_complete', messageId: 'a2', fired: [{ id: 'bell', source: 'workspace', actions: [] }] }),
      record({ toolCallId: 'gone' }),
      record({ fired: [{ id: 'alien', source: 'plugin', actions: [] }], messageId: 'a2' }),
    ]);
    const [, a1, a2] = state.messages();
    expect(ruleIds(a1)).toEqual(['prompt_submit:p', 'tool_result:sql']);
    expect(a1?.rules?.[1]?.actions).toEqual([{ type: 'reminder', text: 't' }]);
    expect(ruleIds(a2)).toEqual(['task_complete:bell']);
    expect(snapshotSchema.safeParse(state.snapshot([])).success).toBe(true);
  });
});
