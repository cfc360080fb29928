// Keel's lean OpenAI wires on the edges of the protocol that real servers use and the
// scripted server does not write: CRLF, comments, split lines and characters, no [DONE],
// tool calls without index or with a reused one, `reasoning` instead of `reasoning_content`; and what real
// providers send: bare-CR lines, Mistral's content parts, OpenAI's multi_tool_use.parallel wrapper.
// Each over real HTTP from a raw server; then the lean model as any AI SDK consumer sees it.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leanChatModel, leanResponsesModel } from '../../../src/core/model/wire/leanModels';
import type { StreamPart } from '../../../src/core/model/wire/modelSpec';
import { callOptions, streamModel } from '../../../src/core/model/wire/modelStream';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

/** The body the raw server sends next, as the pieces it writes one after another. */
let pieces: (string | Buffer)[] = [];
let raw: Server;
let rawURL: string;

beforeAll(async () => {
  raw = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of pieces) {
        await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawURL = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => raw.close(() => resolve())));

async function partsFrom(body: (string | Buffer)[], api: 'chat' | 'responses' = 'chat'): Promise<StreamPart[]> {
  pieces = body;
  const model = api === 'chat' ? leanChatModel('raw', 'm', 'compatible', { baseURL: rawURL }) : leanResponsesModel('raw', 'm', { baseURL: rawURL });
  const parts: StreamPart[] = [];
  await streamModel(model, await callOptions(model, { system: 's', messages: [{ role: 'user', content: 'hi' }] }), (p) => parts.push(p));
  return parts;
}

const text = (parts: StreamPart[], type: 'text-delta' | 'reasoning-delta' = 'text-delta') =>
  parts.flatMap((p) => (p.type === type ? [p.delta] : [])).join('');
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });

describe('lean Chat Completions wire, protocol edges', () => {
  it('reads CRLF lines, skips comments and other fields, joins lines and characters split across reads', async () => {
    const event = (d: Record<string, unknown>) => `data: ${chunk(d)}\r\n\r\n`;
    const emoji = Buffer.from(event({ content: 'née 😀' }));
    const cut = emoji.indexOf(Buffer.from('😀')) + 2; // inside the emoji's four bytes
    const parts = await partsFrom([
      ': keep-alive comment\r\n\r\n',
      'event: message\r\nid: 1\r\n',
      event({ content: 'Hello, ' }).slice(0, 20),
      event({ content: 'Hello, ' }).slice(20),
      emoji.subarray(0, cut),
      emoji.subarray(cut),
      // The last event has no blank line after it and there is no [DONE].
      `data: ${chunk({}, 'stop')}`,
    ]);
    expect(text(parts)).toBe('Hello, née 😀');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('joins the data lines of one event with a line break', async () => {
    const parts = await partsFrom(['data: {"choices":[{"index":0,\n', 'data: "delta":{"content":"two lines"}}]}\n\n', 'data: [DONE]\n\n']);
    expect(text(parts)).toBe('two lines');
  });

  it('keeps calls apart when a server gives no index or reuses index 0 with a new id', async () => {
    const call = (fragment: Record<string, unknown>) => `data: ${chunk({ tool_calls: [fragment] })}\n\n`;
    const parts = await partsFrom([
      call({ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"file_' } }),
      call({ function: { arguments: 'path":"a"}' } }),
      call({ index: 0, id: 'c2', type: 'function', function: { name: 'ls', arguments: '{}' } }),
      `data: ${chunk({}, 'tool_calls')}\n\n`,
      'data: [DONE]\n\n',
    ]);
    const calls = parts.filter((p) => p.type === 'tool-call');
    expect(calls).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"file_path":"a"}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'ls', input: '{}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('reads reasoning sent as `reasoning` (OpenRouter, Ollama) as well as `reasoning_content`', async () => {
    const parts = await partsFrom([
      `data: ${chunk({ reasoning: 'think ' })}\n\n`,
      `data: ${chunk({ reasoning_content: 'more' })}\n\n`,
      `data: ${chunk({ content: 'answer' })}\n\n`,
      'data: [DONE]\n\n',
    ]);
    expect(text(parts, 'reasoning-delta')).toBe('think more');
    expect(text(parts)).toBe('answer');
    const kinds = parts.map((p) => p.type);
    expect(kinds.indexOf('reasoning-end')).toBeLessThan(kinds.indexOf('text-start'));
  });
});

describe('what providers really send', () => {
  it('reads lines that end in a bare CR, and a CRLF cut between its CR and LF', async () => {
    const parts = await partsFrom([
      `data: ${chunk({ content: 'one ' })}\r\r`,
      `data: ${chunk({ content: 'two ' })}\r`,
      `\n\r\ndata: ${chunk({ content: 'three' })}\r`,
      `\r`,
      `data: ${chunk({}, 'stop')}\r`,
    ]);
    expect(text(parts)).toBe('one two three');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it("reads Mistral's content parts: thinking as reasoning, text as the answer, none of it lost", async () => {
    // Mistral's reasoning models: `content` is a list of `thinking` (holding text parts) and `text` parts.
    const parts = await partsFrom([
      `data: ${chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: '17 × 23 is ' }] }] })}\n\n`,
      `data: ${chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: '391.' }] }] })}\n\n`,
      `data: ${chunk({ content: [{ type: 'text', text: '3' }] })}\n\n`,
      `data: ${chunk({ content: '91' })}\n\n`,
      `data: ${chunk({}, 'stop')}\n\n`,
      'data: [DONE]\n\n',
    ]);
    expect(text(parts, 'reasoning-delta')).toBe('17 × 23 is 391.');
    expect(text(parts)).toBe('391');
  });

  const wrapperArgs = JSON.stringify({
    tool_uses: [
      { recipient_name: 'functions.read', parameters: { file_path: 'a.ts' } },
      { recipient_name: 'functions.grep', parameters: { pattern: 'x' } },
    ],
  });
  const unwrapped = [
    { type: 'tool-call', toolCallId: 'w1_0', toolName: 'read', input: '{"file_path":"a.ts"}' },
    { type: 'tool-call', toolCallId: 'w1_1', toolName: 'grep', input: '{"pattern":"x"}' },
  ];

  it('runs the calls inside a multi_tool_use.parallel wrapper on the Responses API, never the wrapper', async () => {
    const event = (e: Record<string, unknown>) => `data: ${JSON.stringify(e)}\n\n`;
    const item = { type: 'function_call', id: 'fc1', call_id: 'w1', name: 'multi_tool_use.parallel' };
    const parts = await partsFrom(
      [
        event({ type: 'response.output_item.added', item: { ...item, arguments: '' } }),
        event({ type: 'response.function_call_arguments.delta', item_id: 'fc1', delta: wrapperArgs.slice(0, 30) }),
        event({ type: 'response.function_call_arguments.delta', item_id: 'fc1', delta: wrapperArgs.slice(30) }),
        event({ type: 'response.output_item.done', item: { ...item, arguments: wrapperArgs } }),
        event({ type: 'response.completed', response: { usage: { input_tokens: 5, output_tokens: 7 } } }),
      ],
      'responses',
    );
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual(unwrapped);
    expect(parts.some((p) => p.type === 'tool-input-start' && p.toolName === 'multi_tool_use.parallel')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('unwraps the same wrapper on Chat Completions', async () => {
    const parts = await partsFrom([
      `data: ${chunk({ tool_calls: [{ index: 0, id: 'w1', type: 'function', function: { name: 'multi_tool_use.parallel', arguments: wrapperArgs.slice(0, 12) } }] })}\n\n`,
      `data: ${chunk({ tool_calls: [{ index: 0, function: { arguments: wrapperArgs.slice(12) } }] })}\n\n`,
      `data: ${chunk({}, 'tool_calls')}\n\n`,
      'data: [DONE]\n\n',
    ]);
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual(unwrapped);
    expect(parts.filter((p) => p.type === 'tool-input-start').map((p) => p.type === 'tool-input-start' && p.toolName)).toEqual(['read', 'grep']);
  });

  it('passes a wrapper whose arguments are not a list of calls on as it is (the model is then told the tool is unknown)', async () => {
    const parts = await partsFrom([
      `data: ${chunk({ tool_calls: [{ index: 0, id: 'w2', type: 'function', function: { name: 'multi_tool_use.parallel', arguments: '{"oops":1}' } }] })}\n\n`,
      `data: ${chunk({}, 'tool_calls')}\n\n`,
    ]);
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual([{ type: 'tool-call', toolCallId: 'w2', toolName: 'multi_tool_use.parallel', input: '{"oops":1}' }]);
  });
});

describe('a lean model as any AI SDK consumer sees it', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.load({ turns: [] }));
  afterAll(() => server.close());
  const model = () => leanChatModel('scripted', 'scripted-model', 'compatible', { baseURL: server.baseURL, apiKey: 'k' });

  it('streams through streamText (doStream) with text and usage', async () => {
    server.load({ turns: [reply.text('Through the SDK.', { usage: { prompt_tokens: 5, completion_tokens: 4 } })] });
    const result = streamText({ model: model(), prompt: 'hi', maxRetries: 0 });
    let streamed = '';
    for await (const part of result.stream) if (part.type === 'text-delta') streamed += part.text;
    expect(streamed).toBe('Through the SDK.');
    expect(await result.totalUsage).toMatchObject({ inputTokens: 5, outputTokens: 4 });
  });

  it('answers generateText (doGenerate) and reports a mid-stream error as an error', async () => {
    server.load({ turns: [reply.text('All of it.'), { ...reply.text('cut here'), afterChunks: 2, streamError: { message: 'overloaded now' } }] });
    const whole = await generateText({ model: model(), prompt: 'hi', maxRetries: 0 });
    expect(whole.text).toBe('All of it.');
    expect(server.requests[0].body.max_tokens).toBeUndefined();
    await expect(generateText({ model: model(), prompt: 'hi', maxRetries: 0 })).rejects.toThrow(/overloaded now/);
  });
});

describe('redirects', () => {
  let hop: Server;
  let hopURL: string;
  const seen: { path: string; auth: string | undefined }[] = [];
  beforeAll(async () => {
    hop = createServer((req, res) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization });
      req.resume();
      if (req.url === '/v1/chat/completions') {
        res.writeHead(308, { location: '/moved/v1/chat/completions' });
        res.end();
      } else if (req.url === '/away/chat/completions') {
        // Another origin: the raw server of the tests above.
        res.writeHead(307, { location: `${rawURL}/chat/completions` });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${chunk({ content: 'moved along' }, 'stop')}\n\ndata: [DONE]\n\n`);
      }
    });
    await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
    hopURL = `http://127.0.0.1:${(hop.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => hop.close(() => resolve())));

  const stream = async (baseURL: string) => {
    const model = leanChatModel('hop', 'm', 'compatible', { baseURL, apiKey: 'sk-secret' });
    const parts: StreamPart[] = [];
    await streamModel(model, await callOptions(model, { system: 's', messages: [{ role: 'user', content: 'hi' }] }), (p) => parts.push(p));
    return parts;
  };

  it('follows a same-origin 307/308 with the same request and key', async () => {
    seen.length = 0;
    expect(text(await stream(`${hopURL}/v1`))).toBe('moved along');
    expect(seen).toEqual([
      { path: '/v1/chat/completions', auth: 'Bearer sk-secret' },
      { path: '/moved/v1/chat/completions', auth: 'Bearer sk-secret' },
    ]);
  });

  it('does not take the key to another origin: it says where the endpoint points instead', async () => {
    pieces = [`data: ${chunk({ content: 'should not be reached' }, 'stop')}\n\n`];
    const rawHits: string[] = [];
    const onRaw = (req: { headers: { authorization?: string } }) => rawHits.push(req.headers.authorization ?? '');
    raw.on('request', onRaw);
    try {
      await expect(stream(`${hopURL}/away`)).rejects.toThrow(/points to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions; set that as the base URL/);
    } finally {
      raw.off('request', onRaw);
    }
    expect(rawHits).toEqual([]);
  });
});
