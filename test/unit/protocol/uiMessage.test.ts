import { describe, expect, it } from 'vitest';
import { appendDelta, messageText } from '../../../src/protocol/uiMessage';
import type { UiPart } from '../../../src/protocol/uiMessage';

describe('appendDelta', () => {
  it('extends the last part of the same type and starts a new one after a different part', () => {
    let parts: UiPart[] = [];
    parts = appendDelta(parts, 'text', 'Let me ');
    parts = appendDelta(parts, 'text', 'look.');
    parts = [...parts, { type: 'toolCall', toolCallId: 't', name: 'read', input: {}, summary: 'a.ts', state: 'done' }];
    parts = appendDelta(parts, 'text', 'Found it.');

    expect(parts.map((part) => part.type)).toEqual(['text', 'toolCall', 'text']);
    expect(parts[0]).toEqual({ type: 'text', text: 'Let me look.' });
    expect(parts[2]).toEqual({ type: 'text', text: 'Found it.' });
  });

  it('does not mutate the parts it was given', () => {
    const parts: UiPart[] = [{ type: 'text', text: 'a' }];
    appendDelta(parts, 'text', 'b');
    expect(parts).toEqual([{ type: 'text', text: 'a' }]);
  });
});

describe('messageText', () => {
  it('joins text parts only', () => {
    expect(
      messageText({
        id: 'm',
        role: 'assistant',
        status: 'done',
        createdAt: 0,
        parts: [
          { type: 'reasoning', text: 'hmm' },
          { type: 'text', text: 'Hello ' },
          { type: 'text', text: 'world' },
        ],
      }),
    ).toBe('Hello world');
  });
});
