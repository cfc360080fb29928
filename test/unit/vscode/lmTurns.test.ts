// The conversation as VS Code's language model API takes it: user and assistant only.
import { describe, expect, it } from 'vitest';
import { toLmTurns } from '../../../src/vscode/lm/lmTurns';

describe('toLmTurns', () => {
  it('sends the system prompt as the first user message, tool results in user messages after their calls', () => {
    const turns = toLmTurns([
      { role: 'system', content: 'You are Keel.' },
      { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { file_path: 'a.txt' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'alpha' } }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
    expect(turns).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'You are Keel.' }, { kind: 'text', text: 'read a.txt' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'Reading.' }, { kind: 'toolCall', callId: 'c1', name: 'read', input: { file_path: 'a.txt' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'alpha' }, { kind: 'text', text: 'thanks' }] },
    ]);
  });

  it('passes every kind of tool output on as text', () => {
    const result = (output: object) =>
      toLmTurns([{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output } as never] }])[0]!.parts[0];
    expect(result({ type: 'error-text', value: 'boom' })).toEqual({ kind: 'toolResult', callId: 'c', text: 'boom' });
    expect(result({ type: 'json', value: { a: 1 } })).toEqual({ kind: 'toolResult', callId: 'c', text: '{"a":1}' });
    expect(result({ type: 'execution-denied', reason: 'no' })).toEqual({ kind: 'toolResult', callId: 'c', text: 'The tool call was denied: no' });
    expect(result({ type: 'content', value: [{ type: 'text', text: 'x' }, { type: 'file', data: 'AAAA', mediaType: 'image/png' }] })).toEqual({
      kind: 'toolResult',
      callId: 'c',
      text: 'x\n[image/png omitted]',
    });
  });

  it('refuses a file the API cannot carry, saying what to do', () => {
    expect(() => toLmTurns([{ role: 'user', content: [{ type: 'file', data: { type: 'data', data: 'AAAA' }, mediaType: 'image/png' } as never] }])).toThrow(/text only.*image\/png/);
  });

  it('keeps a tool call input that is not JSON instead of dropping it', () => {
    const [turn] = toLmTurns([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: '{broken' }] }]);
    expect(turn!.parts[0]).toEqual({ kind: 'toolCall', callId: 'c', name: 't', input: { input: '{broken' } });
  });
});
