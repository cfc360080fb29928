import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../../../src/conversation/conversationEvent';
import { conversationOf, EMPTY_CONVERSATION, foldEvent, foldEvents, messagesOf, toolCallOf } from '../../../src/conversation/foldEvent';
import type { UiMessage } from '../../../src/protocol/uiMessage';

const msg = (id: string, status: UiMessage['status'], role: UiMessage['role'] = 'user'): UiMessage => ({ id, role, parts: [], status, createdAt: 1 });

const events: ConversationEvent[] = [
  { type: 'message', data: { message: msg('u1', 'done') } },
  { type: 'message', data: { message: msg('q1', 'queued') } },
  { type: 'message', data: { message: msg('a1', 'streaming', 'assistant') } },
  { type: 'textDelta', data: { messageId: 'a1', delta: 'Hel' } },
  { type: 'textDelta', data: { messageId: 'a1', delta: 'lo' } },
  { type: 'toolUse', data: { messageId: 'a1', toolCallId: 'c1', name: 'bash', input: { command: 'ls' }, display: { title: 'bash', summary: 'ls', icon: 'terminal', details: { kind: 'command', command: 'ls' } }, state: 'running' } },
  { type: 'toolOutput', data: { toolCallId: 'c1', output: 'a.txt' } },
  { type: 'toolResult', data: { toolCallId: 'c1', name: 'bash', state: 'done', isError: false, output: 'a.txt\n', truncated: false } },
  { type: 'toolPatch', data: { toolCallId: 'c1', files: [{ id: 'f1', displayPath: 'a.txt', kind: 'added', restorable: true, reverted: false }] } },
  { type: 'messagePatch', data: { messageId: 'a1', status: 'done' } },
];

describe('foldEvent', () => {
  it('a progress patch shows on the running card, and the result takes it away', () => {
    const running = events.slice(0, 6).reduce(foldEvent, EMPTY_CONVERSATION);
    const half = foldEvent(running, { type: 'toolPatch', data: { toolCallId: 'c1', progress: { percent: 50, message: 'half way' } } });
    expect(toolCallOf(half, 'c1')?.progress).toEqual({ percent: 50, message: 'half way' });
    const later = foldEvent(half, { type: 'toolPatch', data: { toolCallId: 'c1', progress: { message: 'almost' } } });
    expect(toolCallOf(later, 'c1')?.progress).toEqual({ message: 'almost' });
    const done = foldEvent(later, events[7]!);
    expect(toolCallOf(done, 'c1')?.progress).toBeUndefined();
    const stale = foldEvent(done, { type: 'toolPatch', data: { toolCallId: 'c1', progress: { percent: 99 } } });
    expect(toolCallOf(stale, 'c1')?.progress).toBeUndefined();
  });

  it('folds a turn: deltas, a card through its result and file list, the status; queued prompts stay last', () => {
    const folded = events.reduce(foldEvent, EMPTY_CONVERSATION);
    expect(folded.ids).toEqual(['u1', 'a1', 'q1']);
    expect(folded.messages.get('a1')!.parts[0]).toEqual({ type: 'text', text: 'Hello' });
    expect(toolCallOf(folded, 'c1')).toEqual({
      type: 'toolCall',
      toolCallId: 'c1',
      name: 'bash',
      input: { command: 'ls' },
      display: { title: 'bash', summary: 'ls', icon: 'terminal', details: { kind: 'command', command: 'ls' } },
      state: 'done',
      result: { output: 'a.txt\n', isError: false, truncated: false },
      files: [{ id: 'f1', displayPath: 'a.txt', kind: 'added', restorable: true, reverted: false }],
    });
    expect(folded.messages.get('a1')!.status).toBe('done');
    // Many at once folds to the same conversation.
    expect(messagesOf(foldEvents(EMPTY_CONVERSATION, events))).toEqual(messagesOf(folded));
  });

  it('leaves the conversation given alone and shares what an event did not change', () => {
    const before = events.reduce(foldEvent, EMPTY_CONVERSATION);
    const snapshot = structuredClone(messagesOf(before));
    const after = foldEvent(before, { type: 'textDelta', data: { messageId: 'a1', delta: '!' } });
    expect(messagesOf(before)).toEqual(snapshot);
    expect(after.ids).toBe(before.ids);
    expect(after.messages.get('u1')).toBe(before.messages.get('u1'));
    expect(after.messages.get('a1')).not.toBe(before.messages.get('a1'));
    // An event for a message or card not in view changes nothing.
    expect(foldEvent(before, { type: 'textDelta', data: { messageId: 'gone', delta: 'x' } })).toBe(before);
    expect(foldEvent(before, { type: 'toolState', data: { toolCallId: 'gone', state: 'running' } })).toBe(before);
  });

  it('moves a prompt leaving the queue before the rest of the queue', () => {
    const start = conversationOf([msg('u1', 'done'), msg('q1', 'queued'), msg('q2', 'queued')]);
    const next = foldEvent(start, { type: 'message', data: { message: msg('q2', 'done') } });
    expect(next.ids).toEqual(['u1', 'q2', 'q1']);
    // Replacing a message that stays where it is keeps the order.
    expect(foldEvent(next, { type: 'message', data: { message: { ...msg('u1', 'done'), parts: [{ type: 'text', text: 'x' }] } } }).ids).toBe(next.ids);
  });
});
