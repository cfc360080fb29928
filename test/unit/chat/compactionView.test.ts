import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/core/session/session';
import { hostEvents } from '../../../src/protocol/hostEvents';
import { uiMessageSchema } from '../../../src/protocol/uiMessage';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { ConversationState } from '../../../src/chat/conversations/conversationState';
import { entriesToUiMessages } from '../../../src/chat/conversations/uiMessages';

const ts = new Date(5000).toISOString();

describe('compaction and interruptions in the view', () => {
  it('a resumed conversation shows the compaction as a divider holding the summary, and where Keel stopped', () => {
    const entries: SessionEntry[] = [
      { kind: 'message', id: 'm1', parentId: null, ts, message: { role: 'user', content: 'q1' } },
      { kind: 'message', id: 'm2', parentId: 'm1', ts, message: { role: 'assistant', content: 'a1' } },
      { kind: 'compaction', id: 'k1', ts, summary: '## Goal\nq1', replacesUpTo: 'm2', messages: 2 },
      {
        kind: 'message',
        id: 'm3',
        parentId: 'm2',
        ts,
        message: { role: 'user', content: 'q2' },
        interruption: { ts, note: '[Keel stopped before the previous request finished (the editor or the keel command was closed): the reply to the message above was cut off and lost.]' },
      },
    ];
    const messages = entriesToUiMessages(entries);
    for (const m of messages) expect(uiMessageSchema.safeParse(m).success).toBe(true);
    expect(messages.map((m) => [m.id, m.role, m.parts[0]?.type])).toEqual([
      ['m1', 'user', 'text'],
      ['m2', 'assistant', 'text'],
      ['k1', 'system', 'compaction'],
      ['m3', 'user', 'text'],
      ['m3-cut', 'system', 'interruption'],
    ]);
    expect(messages[2]!.parts[0]).toEqual({ type: 'compaction', summary: '## Goal\nq1', compactedMessages: 2 });
    expect(messages[4]!.parts[0]).toEqual({
      type: 'interruption',
      text: 'Keel stopped before this finished (the editor or the keel command was closed): the reply to the message above was cut off and lost.',
    });
  });

  it('a live compaction adds a divider that fills in with the summary, or says why it failed', () => {
    const sent: { event: string; data: unknown }[] = [];
    let n = 0;
    const state = new ConversationState(
      {
        emit(event, data) {
          expect(hostEvents[event].safeParse(data).success).toBe(true);
          sent.push({ event, data: structuredClone(data) });
        },
      },
      { now: () => 1000, newId: (kind) => `${kind}-${++n}` },
    );
    const never = () => false;
    state.apply({ type: 'compaction', phase: 'start', reason: 'manual' }, never);
    const writing = state.messages().at(-1)!;
    expect(writing).toMatchObject({ role: 'system', status: 'streaming', parts: [{ type: 'compaction', summary: '', reason: 'manual' }] });
    state.apply({ type: 'compaction', phase: 'done', reason: 'manual', id: 'k1', summary: 'S', compactedMessages: 4, tokensBefore: 900, tokensAfter: 100 }, never);
    expect(state.messages()).toHaveLength(1);
    expect(state.messages()[0]).toMatchObject({ id: writing.id, status: 'done', parts: [{ type: 'compaction', summary: 'S', compactedMessages: 4 }] });

    state.apply({ type: 'compaction', phase: 'start', reason: 'auto' }, never);
    state.apply({ type: 'compaction', phase: 'failed', reason: 'auto', error: 'Keel could not compact the conversation: boom. Nothing was changed.' }, never);
    const failed = state.messages().at(-1) as UiMessage;
    expect(failed).toMatchObject({ status: 'error', error: { code: 'compaction_failed', message: expect.stringMatching(/boom/) } });
    // The reason is on the divider; no second banner repeats it.
    expect(sent.filter((s) => s.event === 'error')).toEqual([]);
  });
});
