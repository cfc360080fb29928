import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/core/session/session';
import type { MessageMeta } from '../../../src/core/session/sessionRecords';
import { uiMessageSchema } from '../../../src/protocol/uiMessage';
import type { ToolCallPart } from '../../../src/protocol/uiMessage';
import { mentionBlock, mentionsHeader } from '../../../src/core/mentions/mentionBlock';
import { parseMentions } from '../../../src/chat/parts/mentionText';
import { entriesToUiMessages, toolOutputOf, userContent, userParts, userUiMessage } from '../../../src/chat/conversations/uiMessages';

let n = 0;
function entry(message: ModelMessage, meta?: MessageMeta): SessionEntry {
  n++;
  const e: SessionEntry = { kind: 'message', id: `m${n}`, parentId: null, ts: new Date(1_700_000_000_000 + n).toISOString(), message };
  if (meta) e.meta = meta;
  return e;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('userContent / userUiMessage', () => {
  it('sends plain text as a string', () => {
    expect(userContent({ text: 'hi' })).toBe('hi');
  });

  it('puts images as file parts after the text, and leaves mentions to the Project', () => {
    const content = userContent({ text: 'look', images: [{ mediaType: 'image/png', data: PNG }] });
    expect(content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
    ]);
    expect(userParts(content)).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
  });

  it('builds a live user message that passes the protocol schema', () => {
    const message = userUiMessage('u1', { text: 'fix it', mentions: [{ kind: 'file', path: 'a b.ts' }] }, 5, 'queued');
    expect(uiMessageSchema.parse(message)).toEqual(message);
    expect(message.parts.map((p) => p.type)).toEqual(['text', 'mention']);
  });
});

describe('mention text of earlier builds', () => {
  it('reads the file list back as mentions, including paths with spaces and ranges', () => {
    const text = 'Files and folders the person mentioned (read them as needed):\n- file my dir/file (1).ts (lines 1-2)\n- folder root/sub';
    expect(parseMentions(text)).toEqual([
      { kind: 'file', path: 'my dir/file (1).ts', range: { startLine: 1, endLine: 2 } },
      { kind: 'folder', path: 'root/sub' },
    ]);
  });

  it('leaves other text alone', () => {
    expect(parseMentions('Files and folders the person mentioned (read them as needed):')).toBeUndefined();
    expect(parseMentions('hello\n- file a.ts')).toBeUndefined();
  });
});

describe('entriesToUiMessages', () => {
  it('shows a resumed message\'s mentions as chips from its meta, not the expansion the model saw', () => {
    const expansion = [
      mentionsHeader,
      mentionBlock({ kind: 'problems' }, 'src/a.ts:3:1 error: x is not defined'),
      mentionBlock({ kind: 'file', path: 'src/a.ts' }, 'const y = x;'),
    ].join('\n\n');
    const [message] = entriesToUiMessages([
      entry(
        { role: 'user', content: [{ type: 'text', text: 'fix these' }, { type: 'text', text: expansion }] },
        {
          model: 'm',
          mentions: [
            { kind: 'problems' },
            { kind: 'file', path: 'src/a.ts', range: { startLine: 1, endLine: 4 } },
            { kind: 'url', url: 'https://example.com/doc' },
            { kind: 'git' },
          ],
        },
      ),
    ]);
    expect(message!.parts).toEqual([
      { type: 'text', text: 'fix these' },
      { type: 'mention', mention: { kind: 'problems' } },
      { type: 'mention', mention: { kind: 'file', path: 'src/a.ts', range: { startLine: 1, endLine: 4 } } },
      { type: 'mention', mention: { kind: 'url', url: 'https://example.com/doc' } },
      { type: 'mention', mention: { kind: 'git' } },
    ]);
    expect(uiMessageSchema.parse(message)).toEqual(message);
  });

  it('shows a message that was only mentions as chips alone, and leaves out a mention the view cannot show', () => {
    const expansion = `${mentionsHeader}\n\n${mentionBlock({ kind: 'selection' }, 'let a = 1;')}`;
    const [message] = entriesToUiMessages([
      entry({ role: 'user', content: [{ type: 'text', text: expansion }] }, { mentions: [{ kind: 'selection' }, { kind: 'url', url: 'ftp://old.example' }] }),
    ]);
    expect(message!.parts).toEqual([{ type: 'mention', mention: { kind: 'selection' } }]);
  });

  it('folds tool results into the calling message and keeps order, model and status', () => {
    const entries: SessionEntry[] = [
      entry({ role: 'user', content: 'list files' }),
      entry(
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking' },
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: { path: 'src' } },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { command: 'rm -rf /' } },
            { type: 'tool-call', toolCallId: 'c3', toolName: 'write', input: { file_path: 'a.ts', content: 'x' } },
          ],
        },
        { model: 'custom/m1', turn: 1 },
      ),
      entry({
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'a.ts\nb.ts' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'bash', output: { type: 'error-text', value: 'declined' } },
          { type: 'tool-result', toolCallId: 'c3', toolName: 'write', output: { type: 'execution-denied', reason: 'no' } },
        ],
      }),
      entry({ role: 'assistant', content: [{ type: 'text', text: 'Done' }] }, { model: 'custom/m1', partial: true }),
    ];
    const messages = entriesToUiMessages(entries);
    for (const m of messages) uiMessageSchema.parse(m);
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
      ['assistant', 'cancelled'],
    ]);
    expect(messages[0]!.id).toBe(entries[0]!.id);
    expect(messages[1]!.model).toBe('custom/m1');
    const calls = messages[1]!.parts.filter((p): p is ToolCallPart => p.type === 'toolCall');
    expect(calls.map((c) => [c.toolCallId, c.state, c.display.summary])).toEqual([
      ['c1', 'done', 'src'],
      ['c2', 'error', 'rm -rf /'],
      ['c3', 'rejected', 'a.ts'],
    ]);
    expect(calls[0]!.result).toEqual({ output: 'a.ts\nb.ts', isError: false, truncated: false });
    expect(messages[1]!.parts.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'Let me look.' },
    ]);
  });

  it('shows calls without a result as cancelled and results without a call on their own', () => {
    const messages = entriesToUiMessages([
      entry({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'lost', toolName: 'read', input: { file_path: 'x' } }] }),
      entry({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'other', toolName: 'grep', output: { type: 'json', value: { n: 1 } } }] }),
    ]);
    expect((messages[0]!.parts[0] as ToolCallPart).state).toBe('cancelled');
    expect(messages[1]).toMatchObject({ role: 'tool', parts: [{ type: 'toolResult', toolCallId: 'other', name: 'grep', isError: false }] });
  });

  it('lists compactions as a system note and leaves large images without data', () => {
    const big = 'A'.repeat(400_000);
    const messages = entriesToUiMessages(
      [
        entry({ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: big }, { type: 'image', image: PNG, mediaType: 'image/png' }] }),
        { kind: 'compaction', id: 'k1', ts: new Date(0).toISOString(), summary: 'they talked', replacesUpTo: 'm1' },
      ],
    );
    expect(messages[0]!.parts).toEqual([
      { type: 'image', mediaType: 'image/png' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
    expect(messages[1]).toMatchObject({ id: 'k1', role: 'system' });
    expect(JSON.stringify(messages[1]!.parts)).toContain('they talked');
  });
});

describe('toolOutputOf', () => {
  it('caps long output and marks errors', () => {
    const long = toolOutputOf({ type: 'text', value: 'x'.repeat(50_000) });
    expect(long.truncated).toBe(true);
    expect(long.output.length).toBeLessThanOrEqual(20_000);
    expect(toolOutputOf({ type: 'error-json', value: { a: 1 } })).toMatchObject({ isError: true });
    expect(
      toolOutputOf({ type: 'content', value: [{ type: 'text', text: 'see' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } }] }).output,
    ).toBe('see\n[image/png]');
  });
});
