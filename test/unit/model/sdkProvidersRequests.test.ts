// What Keel sends to Gemini (on its own wire), Vertex, Bedrock and Azure over a whole
// conversation, over real HTTP to the scripted server in each API's own format: five messages
// with tool calls, each request starting with the whole previous one (append-only, so the
// providers' prompt caches hit), Bedrock's cache points where Anthropic's breakpoints go, Gemini's
// call signatures sent back, and the cache reads (and writes) each API reports reaching the result.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../../src/core/config/configSchema';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { RecordedRequest } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { geminiCallSignature } from '../../fixtures/scriptedServer/geminiShapes.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import { fiveMessageTurns, sendFiveMessages } from './fiveMessages';
import type { ProjectBench } from '../llmsContext/projectHarness';
import { scriptedServerWithMetadata } from './sdkProviderEnv';

type Json = Record<string, unknown>;

interface Wire {
  name: string;
  layer: (s: ScriptedServer) => ConfigLayer;
  env?: Record<string, string>;
  /** The request's stable head (system prompt, tools) and its list of messages, as the API takes them. */
  split: (body: Json) => { head: unknown; items: unknown[] };
  /** Cache marks move from request to request by design; they are compared apart. */
  marks?: (body: Json) => { system: number; newest: number; total: number };
}

const awsEnv = { AWS_ACCESS_KEY_ID: 'AKIDSCRIPTED', AWS_SECRET_ACCESS_KEY: 'scripted-secret', AWS_REGION: 'us-east-1' };
const isCachePoint = (b: unknown) => typeof b === 'object' && b !== null && 'cachePoint' in b;
const withoutMarks = (value: unknown) =>
  JSON.stringify(value, (k, v: unknown) => (k === 'cache_control' ? undefined : Array.isArray(v) ? v.filter((b) => !isCachePoint(b)) : v));

const wires: Wire[] = [
  {
    name: 'Gemini API',
    layer: (s) => ({ model: 'g/gemini-2.5-pro', providers: { g: { preset: 'google', baseURL: `${s.url}/v1beta` } } }),
    env: { GOOGLE_GENERATIVE_AI_API_KEY: 'sk-gemini' },
    split: (b) => ({ head: [b.systemInstruction, b.tools, b.toolConfig], items: b.geminiContents as unknown[] }),
  },
  {
    name: 'Vertex AI Gemini',
    layer: (s) => ({ model: 'v/gemini-2.5-flash', providers: { v: { preset: 'vertex', baseURL: s.url, project: 'keel-test', region: 'europe-west4' } } }),
    split: (b) => ({ head: [b.systemInstruction, b.tools, b.toolConfig], items: b.geminiContents as unknown[] }),
  },
  {
    name: 'Vertex AI Claude',
    layer: (s) => ({ model: 'v/claude-sonnet-4-5', providers: { v: { preset: 'vertex', baseURL: s.url, project: 'keel-test', region: 'us-east5' } } }),
    split: (b) => ({ head: [b.system, b.tools], items: b.anthropicMessages as unknown[] }),
  },
  {
    name: 'Amazon Bedrock',
    layer: (s) => ({ model: 'b/anthropic.claude-sonnet-4-5-v1:0', providers: { b: { preset: 'bedrock', baseURL: s.url } } }),
    env: awsEnv,
    split: (b) => ({ head: [b.system, b.toolConfig], items: b.bedrockMessages as unknown[] }),
    marks: (b) => {
      const messages = b.bedrockMessages as Array<{ content: unknown[] }>;
      const count = (blocks: unknown[]) => blocks.filter(isCachePoint).length;
      const system = b.system as unknown[];
      return { system: isCachePoint(system.at(-1)) ? 1 : 0, newest: isCachePoint(messages.at(-1)!.content.at(-1)) ? 1 : 0, total: count(system) + messages.reduce((n, m) => n + count(m.content), 0) };
    },
  },
  {
    name: 'Azure OpenAI',
    layer: (s) => ({ model: 'az/my-gpt-5-deployment', providers: { az: { preset: 'azure', baseURL: `${s.url}/openai` } } }),
    env: { AZURE_API_KEY: 'sk-azure' },
    split: (b) => ({ head: [b.instructions, b.tools], items: b.input as unknown[] }),
  },
];

const scripted = scriptedServerWithMetadata();
let bench: ProjectBench;
afterEach(() => bench?.cleanup());

const body = (r: RecordedRequest) => r.body as unknown as Json;

describe.each(wires)('$name requests', (wire) => {
  it('stay append-only across five messages with tool calls', async () => {
    const server = scripted();
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const { project } = await bench.project(
      fiveMessageTurns,
      { env: { KEEL_HOME: bench.home, ...wire.env }, overrides: [wire.layer(server)] },
    );
    await sendFiveMessages(project);
    expect(server.requests).toHaveLength(9);
    for (let r = 1; r < server.requests.length; r++) {
      const now = wire.split(body(server.requests[r]));
      const before = wire.split(body(server.requests[r - 1]));
      expect(withoutMarks(now.head), `request ${r + 1}: system prompt and tools unchanged`).toBe(withoutMarks(before.head));
      expect(now.items.slice(0, before.items.length).map(withoutMarks), `request ${r + 1} starts with request ${r}`).toEqual(before.items.map(withoutMarks));
      expect(now.items.length).toBeGreaterThan(before.items.length);
    }
    if (wire.marks) {
      for (const r of server.requests) {
        const marks = wire.marks(body(r));
        expect(marks, `request ${r.index}: a cache point ends the system prompt and the newest message`).toMatchObject({ system: 1, newest: 1 });
        expect(marks.total, 'at most four cache points').toBeLessThanOrEqual(4);
      }
    }
    if (wire.name.includes('Gemini')) {
      // The call's thought signature went back with it, where Gemini 3 checks it.
      const model = (body(server.requests[1]).geminiContents as Array<{ role: string; parts: Json[] }>).find((c) => c.role === 'model')!;
      const call = model.parts.find((p) => p.functionCall)!;
      expect(call.thoughtSignature).toMatch(new RegExp(`^${geminiCallSignature({ id: 'gemini_scripted_\\d+', created: 0, model: '' }, 0)}$`));
    }
  });

  it('reports the cache reads (and writes) the API counts', async () => {
    const server = scripted();
    bench = projectBench(server);
    const writes = wire.name === 'Amazon Bedrock' || wire.name === 'Vertex AI Claude';
    const { project } = await bench.project(
      [reply.text('Hello.', { usage: { prompt_tokens: 1000, completion_tokens: 20, cached_tokens: 600, ...(writes ? { cache_write_tokens: 300 } : {}) } })],
      { env: { KEEL_HOME: bench.home, ...wire.env }, overrides: [wire.layer(server)] },
    );
    const result = await project.send('hi', recorder());
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.usage).toMatchObject({ inputTokens: 1000, outputTokens: 20, cachedInputTokens: 600, ...(writes ? { cacheWriteTokens: 300 } : {}) });
  });
});
