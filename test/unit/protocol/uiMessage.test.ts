import { describe, expect, it } from 'vitest';
import { appendDelta } from '../../../src/conversation/appendDelta';
import { mentionSchema, messageText } from '../../../src/protocol/uiMessage';
import type { UiPart } from '../../../src/protocol/uiMessage';

describe('appendDelta', () => {
  it('extends the last part of the same type and starts a new one after a different part', () => {
    let parts: UiPart[] = [];
    parts = appendDelta(parts, 'text', 'Let me ');
    parts = appendDelta(parts, 'text', 'look.');
    parts = [...parts, { type: 'toolCall', toolCallId: 't', name: 'read', input: {}, display: { title: 'read', summary: 'a.ts', icon: 'file', details: { kind: 'keyValue', entries: [] } }, state: 'done' }];
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

describe('mentionSchema', () => {
  it('still accepts the file and folder mentions older views send', () => {
    const file = { kind: 'file', path: 'src/a.ts', range: { startLine: 2, endLine: 5 } };
    expect(mentionSchema.parse(file)).toEqual(file);
    expect(mentionSchema.parse({ kind: 'folder', path: 'lib' })).toEqual({ kind: 'folder', path: 'lib' });
  });

  it('accepts the editor, git, terminal and web mentions', () => {
    for (const mention of [{ kind: 'problems' }, { kind: 'selection' }, { kind: 'git' }, { kind: 'terminal' }, { kind: 'url', url: 'https://example.com/a' }]) {
      expect(mentionSchema.parse(mention)).toEqual(mention);
    }
  });

  it('refuses a path on a keyword mention, a missing path, and an address that is not http(s)', () => {
    expect(mentionSchema.safeParse({ kind: 'git', path: 'x' }).success).toBe(false);
    expect(mentionSchema.safeParse({ kind: 'file' }).success).toBe(false);
    expect(mentionSchema.safeParse({ kind: 'url', url: 'file:///etc/passwd' }).success).toBe(false);
    expect(mentionSchema.safeParse({ kind: 'url', url: 'not a url' }).success).toBe(false);
  });
});
