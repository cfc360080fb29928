// An MCP server's request card is one part of the one fold: added to the message its run is in,
// replaced by its request id as it is answered (the text streamed after it stays after it), and
// an event for a message not in view changes nothing. Host and page fold the same events.
import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../../../src/conversation/conversationEvent';
import { ConversationMirror } from '../../../src/conversation/conversationMirror';
import { EMPTY_CONVERSATION, foldEvent, foldEvents } from '../../../src/conversation/foldEvent';
import { hostEvents } from '../../../src/protocol/hostEvents';
import type { McpRequestPart } from '../../../src/protocol/mcpRequests';

const form: McpRequestPart = {
  type: 'mcpRequest',
  requestId: 'r1',
  server: 'asking',
  request: { kind: 'form', message: 'Where?', fields: [{ name: 'city', label: 'City', kind: 'text', required: true }] },
  state: 'open',
};
const sampling: McpRequestPart = {
  type: 'mcpRequest',
  requestId: 'r2',
  server: 'asking',
  request: { kind: 'sampling', modelId: 'p/m', messages: [{ role: 'user', text: 'Summarize' }], lastUserText: 'Summarize', maxTokens: 100 },
  state: 'open',
};

const start: ConversationEvent[] = [
  { type: 'message', data: { message: { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Let me book.' }], status: 'done', createdAt: 1 } } },
  { type: 'mcpRequest', data: { messageId: 'a1', part: form } },
];

describe('an MCP request card in the fold', () => {
  it('is added after the message parts, replaced by its id as it is answered, and later text goes after it', () => {
    const open = foldEvents(EMPTY_CONVERSATION, start);
    expect(open.messages.get('a1')!.parts).toEqual([{ type: 'text', text: 'Let me book.' }, form]);
    const answered = foldEvent(open, { type: 'mcpRequest', data: { messageId: 'a1', part: { ...form, state: 'accepted' } } });
    expect(answered.messages.get('a1')!.parts).toEqual([{ type: 'text', text: 'Let me book.' }, { ...form, state: 'accepted' }]);
    const more = foldEvents(answered, [
      { type: 'textDelta', data: { messageId: 'a1', delta: 'Booked.' } },
      { type: 'mcpRequest', data: { messageId: 'a1', part: sampling } },
      { type: 'mcpRequest', data: { messageId: 'a1', part: { ...sampling, state: 'accepted', usage: { inputTokens: 5, outputTokens: 1 } } } },
    ]);
    expect(more.messages.get('a1')!.parts.map((p) => (p.type === 'mcpRequest' ? `${p.requestId}:${p.state}` : p.type))).toEqual(['text', 'r1:accepted', 'text', 'r2:accepted']);
  });

  it('an event for a message not in view changes nothing (the same conversation comes back)', () => {
    const open = foldEvents(EMPTY_CONVERSATION, start);
    expect(foldEvent(open, { type: 'mcpRequest', data: { messageId: 'gone', part: sampling } })).toBe(open);
  });

  it('the event and the part pass the bus schema; a mirror tells which message changed', () => {
    for (const event of start) expect(hostEvents[event.type].safeParse(event.data).success).toBe(true);
    expect(hostEvents.mcpRequest.safeParse({ messageId: 'a1', part: { ...form, state: 'answered' } }).success).toBe(false);
    const mirror = new ConversationMirror();
    mirror.apply(start[0]!);
    expect(mirror.apply(start[1]!).changed).toEqual(['a1']);
  });
});
