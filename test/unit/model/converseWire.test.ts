// Keel's own Bedrock Converse wire, the parts the conversation-level tests do not reach: what
// each kind of prompt part becomes, Claude's thinking budget inside maxTokens, and the AWS event
// stream read off the network in pieces that cut frames anywhere, with an exception mid-stream.
import { createServer, get } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { converseParser, readConverseEvents } from '../../../src/core/model/wire/converseParser';
import { converseRequest } from '../../../src/core/model/wire/converseRequest';
import type { CallOptions, StreamPart } from '../../../src/core/model/wire/modelSpec';
import { bedrockEvent, bedrockException } from '../../fixtures/scriptedServer/eventStream.ts';

const call = (over: Partial<CallOptions>): CallOptions => ({ prompt: [], ...over }) as CallOptions;

/** Serves `bytes` in pieces of `piece` bytes and reads them back through the wire's reader and parser. */
async function readBack(bytes: Buffer, piece: number): Promise<{ parts: StreamPart[]; error?: Error }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    let at = 0;
    const next = () => {
      if (at >= bytes.length) return res.end();
      res.write(bytes.subarray(at, at + piece));
      at += piece;
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const parts: StreamPart[] = [];
  const parser = converseParser((p) => parts.push(p));
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = get(`http://127.0.0.1:${port}/`, resolve);
      req.on('error', reject);
    });
    await readConverseEvents(response, parser.data, () => {});
    parser.end();
    return { parts };
  } catch (err) {
    return { parts, error: err as Error };
  } finally {
    server.close();
  }
}

describe('the Converse request', () => {
  it('sends images and PDFs inline with formats, tool errors with status, and cache points after the marked content', () => {
    const { body, path } = converseRequest(
      'anthropic.claude-sonnet-4-5-v1:0',
      call({
        prompt: [
          { role: 'system', content: 'sys', providerOptions: { bedrock: { cachePoint: { type: 'default' } } } },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'file', mediaType: 'image/jpeg', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
              { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'JVBERi0=' } },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: ' ' }, { type: 'tool-call', toolCallId: 't1', toolName: 'read', input: { path: 'a' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'error-text', value: 'no such file' } }], providerOptions: { bedrock: { cachePoint: { type: 'default' } } } },
        ],
      } as Partial<CallOptions>),
      64_000,
    );
    expect(path).toBe('/model/anthropic.claude-sonnet-4-5-v1%3A0/converse-stream');
    expect(body.system).toEqual([{ text: 'sys' }, { cachePoint: { type: 'default' } }]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { text: 'look' },
          { image: { format: 'jpeg', source: { bytes: 'AQID' } } },
          { document: { format: 'pdf', name: 'document-1', source: { bytes: 'JVBERi0=' } } },
        ],
      },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'read', input: { path: 'a' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'no such file' }], status: 'error' } }, { cachePoint: { type: 'default' } }] },
    ]);
  });

  it('sends a tool’s image as an image block of its result, not as text', () => {
    const output = { type: 'content', value: [{ type: 'text', text: 'a screenshot' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } }] };
    const prompt = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 's', toolName: 'shot', output }] }];
    expect(converseRequest('m', call({ prompt } as Partial<CallOptions>), undefined).body.messages).toEqual([
      { role: 'user', content: [{ toolResult: { toolUseId: 's', content: [{ text: 'a screenshot' }, { image: { format: 'png', source: { bytes: 'AQID' } } }] } }] },
    ]);
  });

  it('puts Claude\'s thinking budget in the model fields and inside maxTokens, and refuses a file it cannot carry', () => {
    const thinking = { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 4_000 } } };
    const { body } = converseRequest('anthropic.claude-sonnet-4-5-v1:0', call({ maxOutputTokens: 2_000, temperature: 0.5, providerOptions: thinking } as Partial<CallOptions>), 64_000);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4_000 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 6_000 });
    const zip = call({ prompt: [{ role: 'user', content: [{ type: 'file', mediaType: 'application/zip', data: { type: 'data', data: 'UEs=' } }] }] } as Partial<CallOptions>);
    expect(() => converseRequest('m', zip, undefined)).toThrow(/cannot take a application\/zip file/);
  });
});

describe('the ConverseStream events', () => {
  const frames = Buffer.concat([
    bedrockEvent('messageStart', { role: 'assistant' }),
    bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hel' } }),
    bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'lo' } }),
    bedrockEvent('contentBlockStop', { contentBlockIndex: 0 }),
    bedrockEvent('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tu_1', name: 'read' } } }),
    bedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"path":' } } }),
    bedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"a"}' } } }),
    bedrockEvent('contentBlockStop', { contentBlockIndex: 1 }),
    bedrockEvent('messageStop', { stopReason: 'tool_use' }),
    bedrockEvent('metadata', { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadInputTokens: 90 } }),
  ]);

  for (const piece of [1, 7, 4096]) {
    it(`reads text, a call and usage from pieces of ${piece} byte${piece === 1 ? '' : 's'}`, async () => {
      const { parts, error } = await readBack(frames, piece);
      expect(error).toBeUndefined();
      const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
      expect(text).toBe('Hello');
      expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({ toolCallId: 'tu_1', toolName: 'read', input: '{"path":"a"}' });
      const finish = parts.at(-1) as Extract<StreamPart, { type: 'finish' }>;
      expect(finish.finishReason.unified).toBe('tool-calls');
      expect(finish.usage.inputTokens).toEqual({ total: 100, noCache: 10, cacheRead: 90, cacheWrite: 0 });
    });
  }

  it('ends with the exception a stream reports, and names a response cut inside a frame', async () => {
    const thrown = await readBack(Buffer.concat([bedrockEvent('messageStart', { role: 'assistant' }), bedrockException('throttlingException', 'Too many tokens, please wait')]), 5);
    expect(thrown.error?.message).toBe('Too many tokens, please wait');
    const cut = await readBack(frames.subarray(0, frames.length - 3), 4096);
    expect(cut.error?.message).toMatch(/inside an event/);
  });
});
