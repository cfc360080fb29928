// Keel's own Gemini generateContent wire, the parts the conversation-level tests do not reach:
// what each kind of prompt part becomes in the request (files, thoughts and calls with their
// signatures, tool results and errors), tool declarations and choice, generation and thinking
// settings, Vertex's flavour, and how the events of a stream become parts (signatures kept,
// calls without arguments, finish reasons, cached and thought tokens, errors, blocked prompts).
import { describe, expect, it } from 'vitest';
import { geminiParser } from '../../../src/core/model/wire/geminiParser';
import { geminiApi, geminiRequest, SKIP_SIGNATURE, vertexGemini } from '../../../src/core/model/wire/geminiRequest';
import type { CallOptions, StreamPart } from '../../../src/core/model/wire/modelSpec';

const call = (over: Partial<CallOptions>): CallOptions => ({ prompt: [], ...over }) as CallOptions;
type Finish = Extract<StreamPart, { type: 'finish' }>;

function parse(events: object[], names: readonly string[] = geminiApi.names): StreamPart[] {
  const parts: StreamPart[] = [];
  const parser = geminiParser(names)((p) => parts.push(p));
  for (const e of events) parser.data(JSON.stringify(e));
  parser.end();
  return parts;
}

const chunk = (parts: object[], extra: object = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }] });

const conversation = [
  { role: 'system', content: 'sys' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'text', text: '' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
      { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: new URL('https://generativelanguage.googleapis.com/v1beta/files/abc') } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Which file?', providerOptions: { google: { thoughtSignature: 'sig-r' } } },
      { type: 'text', text: '' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'read', input: { path: 'a' }, providerOptions: { google: { thoughtSignature: 'sig-c' } } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'error-text', value: 'no such file' } }] },
  { role: 'user', content: [{ type: 'text', text: 'try b' }] },
];

describe('the generateContent request', () => {
  it('sends the system instruction, files inline or by URL, thoughts and calls with their signatures, and tool errors as errors', () => {
    const { body, path } = geminiRequest('gemini-2.5-pro', call({ prompt: conversation } as Partial<CallOptions>));
    expect(path).toBe('/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'sys' }] });
    expect(body.contents).toEqual([
      {
        role: 'user',
        // The empty text part is left out: the API refuses it.
        parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'AQID' } }, { fileData: { mimeType: 'application/pdf', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }],
      },
      {
        role: 'model',
        parts: [
          { text: 'Which file?', thought: true, thoughtSignature: 'sig-r' },
          { functionCall: { id: 't1', name: 'read', args: { path: 'a' } }, thoughtSignature: 'sig-c' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'read', response: { name: 'read', error: 'no such file' } } }] },
      { role: 'user', parts: [{ text: 'try b' }] },
    ]);
  });

  it('declares tools with their JSON Schema as it is, and asks for a tool the way the API names it', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
    const tools = [{ type: 'function', name: 'read', description: 'Read', inputSchema: schema }];
    const auto = geminiRequest('m', call({ tools, toolChoice: { type: 'auto' } } as Partial<CallOptions>)).body;
    expect(auto.tools).toEqual([{ functionDeclarations: [{ name: 'read', description: 'Read', parametersJsonSchema: schema }] }]);
    expect(auto.toolConfig).toBeUndefined();
    expect(geminiRequest('m', call({ tools, toolChoice: { type: 'required' } } as Partial<CallOptions>)).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(geminiRequest('m', call({ tools, toolChoice: { type: 'tool', toolName: 'read' } } as Partial<CallOptions>)).body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['read'] },
    });
    expect(geminiRequest('m', call({ tools, toolChoice: { type: 'none' } } as Partial<CallOptions>)).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(geminiRequest('m', call({})).body.tools).toBeUndefined();
  });

  it('puts output limit, temperature and thinking in generationConfig, and asks a thinking model for its thoughts', () => {
    const thinking = { google: { thinkingConfig: { thinkingBudget: 2048 } } };
    const { body } = geminiRequest('gemini-2.5-flash', call({ maxOutputTokens: 4000, temperature: 0.2, providerOptions: thinking } as Partial<CallOptions>));
    expect(body.generationConfig).toEqual({ maxOutputTokens: 4000, temperature: 0.2, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
    // What the call says about thoughts stands; a model that does not think is asked nothing.
    const quiet = { google: { thinkingConfig: { thinkingLevel: 'low', includeThoughts: false } } };
    expect(geminiRequest('gemini-3-pro-preview', call({ providerOptions: quiet } as Partial<CallOptions>)).body.generationConfig).toEqual({ thinkingConfig: { thinkingLevel: 'low', includeThoughts: false } });
    expect(geminiRequest('gemini-2.0-flash', call({})).body.generationConfig).toBeUndefined();
  });

  it('gives Gemini 3 unsigned calls (another model’s) Google’s stand-in signature, but not the later of parallel calls Gemini signed once', () => {
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: '{"path":"a"}' },
          { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: '{"path":"b"}' },
        ],
      },
    ];
    const g3 = geminiRequest('gemini-3-pro-preview', call({ prompt } as Partial<CallOptions>));
    const parts = (g3.body.contents as Array<{ parts: Array<Record<string, unknown>> }>)[1].parts;
    expect(parts.map((p) => p.thoughtSignature)).toEqual([SKIP_SIGNATURE, SKIP_SIGNATURE]);
    expect(g3.warnings).toHaveLength(2);
    // Earlier models check no signatures: nothing is made up for them.
    const g25 = geminiRequest('gemini-2.5-pro', call({ prompt } as Partial<CallOptions>));
    expect((g25.body.contents as Array<{ parts: Array<Record<string, unknown>> }>)[1].parts[0]).toEqual({ functionCall: { id: 'a', name: 'read', args: { path: 'a' } } });
    const first = prompt[1].content[0] as Record<string, unknown>;
    first.providerOptions = { google: { thoughtSignature: 'sig-once' } };
    const once = geminiRequest('gemini-3-pro-preview', call({ prompt } as Partial<CallOptions>));
    expect((once.body.contents as Array<{ parts: Array<Record<string, unknown>> }>)[1].parts.map((p) => p.thoughtSignature)).toEqual(['sig-once', undefined]);
  });

  it('sends a tool’s image inside the function response for Gemini 3, beside it for earlier models', () => {
    const output = { type: 'content', value: [{ type: 'text', text: 'a screenshot' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBO' } }] };
    const prompt = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 's', toolName: 'shot', output }] }];
    const image = { inlineData: { mimeType: 'image/png', data: 'iVBO' } };
    const g3 = geminiRequest('gemini-3-pro-preview', call({ prompt } as Partial<CallOptions>)).body.contents as Array<{ parts: unknown[] }>;
    expect(g3[0].parts).toEqual([{ functionResponse: { id: 's', name: 'shot', response: { name: 'shot', content: 'a screenshot' }, parts: [image] } }]);
    const g25 = geminiRequest('gemini-2.5-pro', call({ prompt } as Partial<CallOptions>)).body.contents as Array<{ parts: unknown[] }>;
    expect(g25[0].parts[0]).toEqual({ functionResponse: { id: 's', name: 'shot', response: { name: 'shot', content: 'a screenshot' } } });
    expect(g25[0].parts[1]).toEqual(image);
  });

  it('on Vertex sends no call ids and reads signatures under the Vertex provider’s names', () => {
    const prompt = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't', toolName: 'ls', input: {}, providerOptions: { googleVertex: { thoughtSignature: 'v-sig' } } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't', toolName: 'ls', output: { type: 'text', value: 'a b' } }] },
    ];
    const contents = geminiRequest('gemini-2.5-pro', call({ prompt } as Partial<CallOptions>), vertexGemini).body.contents;
    expect(contents).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} }, thoughtSignature: 'v-sig' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { name: 'ls', content: 'a b' } } }] },
    ]);
  });
});

describe('the generateContent stream', () => {
  it('streams thoughts as reasoning, then text, keeps a call’s signature, and reads cached and thought tokens', () => {
    const parts = parse([
      chunk([{ text: 'Let me ', thought: true }]),
      chunk([{ text: 'look.', thought: true }]),
      chunk([{ text: 'Reading it.' }]),
      chunk([{ functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'sig-1' }]),
      chunk([{ functionCall: { id: 'c2', name: 'list' } }], { finishReason: 'STOP' }),
      { usageMetadata: { promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 20, thoughtsTokenCount: 30, totalTokenCount: 1050 } },
    ]);
    expect(parts.filter((p) => p.type === 'reasoning-delta').map((p) => (p as { delta: string }).delta).join('')).toBe('Let me look.');
    expect(parts.findIndex((p) => p.type === 'reasoning-end')).toBeLessThan(parts.findIndex((p) => p.type === 'text-start'));
    const calls = parts.filter((p): p is Extract<StreamPart, { type: 'tool-call' }> => p.type === 'tool-call');
    expect(calls[0]).toMatchObject({ toolName: 'read', input: '{"path":"a"}', providerMetadata: { google: { thoughtSignature: 'sig-1' } } });
    // Gemini API calls may come without an id: each gets one of its own.
    expect(calls[0].toolCallId).toMatch(/^call_/);
    expect(calls[1]).toMatchObject({ toolCallId: 'c2', toolName: 'list', input: '{}' });
    expect(calls[1].providerMetadata).toBeUndefined();
    const finish = parts.at(-1) as Finish;
    expect(finish.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    expect(finish.usage.inputTokens).toEqual({ total: 1000, noCache: 400, cacheRead: 600, cacheWrite: undefined });
    expect(finish.usage.outputTokens).toEqual({ total: 50, text: 20, reasoning: 30 });
  });

  it('keeps a signature sent on an empty part, under every name of the flavour', () => {
    const parts = parse([chunk([{ text: 'thinking', thought: true }]), chunk([{ text: '', thought: true, thoughtSignature: 'sig-e' }], { finishReason: 'STOP' })], ['googleVertex', 'vertex']);
    const signed = parts.find((p) => p.type === 'reasoning-start' && p.providerMetadata);
    expect(signed).toMatchObject({ providerMetadata: { googleVertex: { thoughtSignature: 'sig-e' }, vertex: { thoughtSignature: 'sig-e' } } });
    expect((parts.at(-1) as Finish).finishReason.unified).toBe('stop');
  });

  it('says why an answer stopped short: the output limit, a safety stop, a blocked prompt', () => {
    expect((parse([chunk([{ text: 'cut' }], { finishReason: 'MAX_TOKENS' })]).at(-1) as Finish).finishReason.unified).toBe('length');
    expect((parse([chunk([], { finishReason: 'SAFETY' })]).at(-1) as Finish).finishReason.unified).toBe('content-filter');
    expect((parse([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }]).at(-1) as Finish).finishReason).toEqual({ unified: 'content-filter', raw: 'PROHIBITED_CONTENT' });
  });

  it('fails with what an error event says', () => {
    expect(() => parse([chunk([{ text: 'partial' }]), { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }])).toThrow('The model is overloaded.');
  });
});
