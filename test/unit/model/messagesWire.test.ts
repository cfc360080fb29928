// Keel's own Anthropic Messages wire, the parts the conversation-level tests do not reach:
// what each kind of prompt part becomes in the request, thinking's budget inside max_tokens,
// and how the events of a stream become parts (redacted thinking, calls without arguments,
// cache reads and writes in usage, an error event).
import { describe, expect, it } from 'vitest';
import { messagesParser } from '../../../src/core/model/wire/messagesParser';
import { messagesRequest } from '../../../src/core/model/wire/messagesRequest';
import type { CallOptions, StreamPart } from '../../../src/core/model/wire/modelSpec';

const call = (over: Partial<CallOptions>): CallOptions => ({ prompt: [], ...over }) as CallOptions;

function parse(events: object[]): StreamPart[] {
  const parts: StreamPart[] = [];
  const parser = messagesParser((p) => parts.push(p));
  for (const e of events) parser.data(JSON.stringify(e));
  parser.end();
  return parts;
}

describe('the Messages request', () => {
  it('sends images and PDFs as blocks, tool errors flagged, and joins a tool result with the next user text in one user turn', () => {
    const { body } = messagesRequest(
      'claude-x',
      call({
        prompt: [
          { role: 'system', content: 'sys' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
              { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: new URL('https://example.com/a.pdf') } },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool-call', toolCallId: 't1', toolName: 'read', input: { path: 'a' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'error-text', value: 'no such file' } }] },
          { role: 'user', content: [{ type: 'text', text: 'try b' }] },
        ],
      } as Partial<CallOptions>),
      64_000,
    );
    expect(body.system).toEqual([{ type: 'text', text: 'sys' }]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID' } },
          { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        ],
      },
      // The empty text block is left out: the API refuses it.
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'a' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'no such file', is_error: true },
          { type: 'text', text: 'try b' },
        ],
      },
    ]);
    expect(body.max_tokens).toBe(64_000);
  });

  it('counts a thinking budget inside max_tokens, within the model limit, and drops sampling settings thinking refuses', () => {
    const thinking = { anthropic: { thinking: { type: 'enabled', budgetTokens: 8_000 } } };
    const small = messagesRequest('m', call({ maxOutputTokens: 4_000, temperature: 0.2, providerOptions: thinking } as Partial<CallOptions>), 64_000);
    expect(small.body.max_tokens).toBe(12_000);
    expect(small.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8_000 });
    expect(small.body.temperature).toBeUndefined();
    expect(small.warnings.some((w) => w.type === 'unsupported')).toBe(true);
    const capped = messagesRequest('m', call({ providerOptions: thinking } as Partial<CallOptions>), 64_000);
    expect(capped.body.max_tokens).toBe(64_000);
    // An unknown model still gets a max_tokens (required by the API).
    expect(messagesRequest('m', call({}), undefined).body.max_tokens).toBe(8_192);
  });

  it('sends a tool’s image as an image block of its result, not as text', () => {
    const output = { type: 'content', value: [{ type: 'text', text: 'a screenshot' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } }] };
    const prompt = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 's', toolName: 'shot', output }] }];
    expect(messagesRequest('m', call({ prompt } as Partial<CallOptions>), 1).body.messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 's',
            content: [
              { type: 'text', text: 'a screenshot' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID' } },
            ],
          },
        ],
      },
    ]);
  });

  it('asks for a tool the way the API names it, and refuses a file type it cannot carry', () => {
    const tools = [{ type: 'function', name: 'read', description: 'Read', inputSchema: { type: 'object' } }];
    expect(messagesRequest('m', call({ tools, toolChoice: { type: 'required' } } as Partial<CallOptions>), 1).body.tool_choice).toEqual({ type: 'any' });
    expect(messagesRequest('m', call({ tools, toolChoice: { type: 'tool', toolName: 'read' } } as Partial<CallOptions>), 1).body.tool_choice).toEqual({ type: 'tool', name: 'read' });
    expect(messagesRequest('m', call({ tools, toolChoice: { type: 'auto' } } as Partial<CallOptions>), 1).body.tool_choice).toBeUndefined();
    const zip = call({ prompt: [{ role: 'user', content: [{ type: 'file', mediaType: 'application/zip', data: { type: 'data', data: 'UEs=' } }] }] } as Partial<CallOptions>);
    expect(() => messagesRequest('m', zip, 1)).toThrow(/cannot take a application\/zip file/);
  });
});

describe('the Messages stream', () => {
  it('keeps redacted thinking as data, gives a call without arguments an empty object, and reads cache reads and writes', () => {
    const parts = parse([
      { type: 'message_start', message: { usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'opaque' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu_1', name: 'list', input: {} } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 7 } },
      { type: 'message_stop' },
    ]);
    expect(parts.find((p) => p.type === 'reasoning-start')).toMatchObject({ providerMetadata: { anthropic: { redactedData: 'opaque' } } });
    expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({ toolCallId: 'tu_1', toolName: 'list', input: '{}' });
    const finish = parts.at(-1) as Extract<StreamPart, { type: 'finish' }>;
    expect(finish.finishReason.unified).toBe('tool-calls');
    expect(finish.usage.inputTokens).toEqual({ total: 130, noCache: 10, cacheRead: 100, cacheWrite: 20 });
    expect(finish.usage.outputTokens.total).toBe(7);
  });

  it('fails with what an error event says', () => {
    expect(() => parse([{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }])).toThrow('Overloaded');
  });
});
