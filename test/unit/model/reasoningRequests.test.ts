// The reasoning a person chose for a model goes out on every request, in the form each API takes:
// Chat Completions' `reasoning_effort`, Responses' `reasoning.effort`, Anthropic's and Bedrock's
// thinking budget, Gemini's `thinkingConfig`. Over real HTTP to the scripted server, through a
// whole Project send, so what is asserted is the request body the API would receive.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../../src/core/config/configSchema';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import type { ReasoningChoice } from '../../../src/core/model/reasoning';
import { thinkingBudgets } from '../../../src/core/model/reasoning';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';
import { scriptedServerWithMetadata } from './sdkProviderEnv';

type Json = Record<string, unknown>;

interface Wire {
  name: string;
  /** The provider and model, with the person's reasoning for it. */
  layer: (s: ScriptedServer, reasoning: Record<string, ReasoningChoice>) => ConfigLayer;
  env?: Record<string, string>;
  choice: ReasoningChoice;
  /** What the request body carries for `choice`. */
  expected: Json;
  /** Where in the body the wire puts it (to check that `default` sends none). */
  absent: (body: Json) => unknown;
}

const awsEnv = { AWS_ACCESS_KEY_ID: 'AKIDSCRIPTED', AWS_SECRET_ACCESS_KEY: 'scripted-secret', AWS_REGION: 'us-east-1' };
const generation = (b: Json) => (b.generationConfig as Json | undefined)?.thinkingConfig as Json | undefined;

const wires: Wire[] = [
  {
    name: 'Chat Completions',
    layer: (s, reasoning) => ({ model: 'local/gpt-5-mini', providers: { local: { baseURL: s.baseURL } }, reasoning }),
    choice: 'high',
    expected: { reasoning_effort: 'high' },
    absent: (b) => b.reasoning_effort,
  },
  {
    name: 'Responses',
    layer: (s, reasoning) => ({ model: 'local/o4-mini', providers: { local: { baseURL: s.baseURL, api: 'responses' } }, reasoning }),
    choice: 'low',
    expected: { reasoning: { effort: 'low' } },
    absent: (b) => b.reasoning,
  },
  {
    name: 'Anthropic Messages',
    layer: (s, reasoning) => ({ model: 'claude/claude-sonnet-4-5', providers: { claude: { preset: 'anthropic', baseURL: s.baseURL } }, reasoning }),
    env: { ANTHROPIC_API_KEY: 'sk-ant' },
    choice: 'medium',
    expected: { thinking: { type: 'enabled', budget_tokens: thinkingBudgets.medium } },
    absent: (b) => b.thinking,
  },
  {
    name: 'Amazon Bedrock',
    layer: (s, reasoning) => ({ model: 'b/anthropic.claude-sonnet-4-5-v1:0', providers: { b: { preset: 'bedrock', baseURL: s.url } }, reasoning }),
    env: awsEnv,
    choice: 'high',
    expected: { additionalModelRequestFields: expect.objectContaining({ thinking: { type: 'enabled', budget_tokens: thinkingBudgets.high } }) },
    absent: (b) => (b.additionalModelRequestFields as Json | undefined)?.thinking,
  },
  {
    name: 'Gemini API',
    layer: (s, reasoning) => ({ model: 'g/gemini-2.5-pro', providers: { g: { preset: 'google', baseURL: `${s.url}/v1beta` } }, reasoning }),
    env: { GOOGLE_GENERATIVE_AI_API_KEY: 'sk-gemini' },
    choice: 'low',
    expected: { generationConfig: expect.objectContaining({ thinkingConfig: { thinkingBudget: thinkingBudgets.low, includeThoughts: true } }) },
    absent: (b) => generation(b)?.thinkingBudget,
  },
  {
    name: 'Gemini API, thinking off',
    layer: (s, reasoning) => ({ model: 'g/gemini-2.5-flash', providers: { g: { preset: 'google', baseURL: `${s.url}/v1beta` } }, reasoning }),
    env: { GOOGLE_GENERATIVE_AI_API_KEY: 'sk-gemini' },
    choice: 'off',
    expected: { generationConfig: expect.objectContaining({ thinkingConfig: { thinkingBudget: 0 } }) },
    absent: (b) => generation(b)?.thinkingBudget,
  },
  {
    name: 'Gemini 3 on Vertex',
    layer: (s, reasoning) => ({ model: 'v/gemini-3-pro-preview', providers: { v: { preset: 'vertex', baseURL: s.url, project: 'keel-test', region: 'global' } }, reasoning }),
    choice: 'high',
    expected: { generationConfig: expect.objectContaining({ thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } }) },
    absent: (b) => generation(b)?.thinkingLevel,
  },
];

const scripted = scriptedServerWithMetadata();
let bench: ProjectBench;
afterEach(() => bench?.cleanup());

const bodyOf = (server: ScriptedServer, i: number) => server.requests[i].body as unknown as Json;

describe.each(wires)('reasoning on the $name wire', (wire) => {
  const model = (s: ScriptedServer) => wire.layer(s, {}).model!;

  it('is sent with every request of the run, as the person chose it for the model', async () => {
    const server = scripted();
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const { project } = await bench.project([reply.tool('read', { file_path: 'a.txt' }), reply.text('It says alpha.')], {
      env: { KEEL_HOME: bench.home, ...wire.env },
      overrides: [wire.layer(server, { [model(server)]: wire.choice })],
    });
    const result = await project.send('read a.txt', recorder());
    expect(result.status, result.error?.message).toBe('completed');
    expect(server.requests).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect(bodyOf(server, i)).toMatchObject(wire.expected);
  });

  it('sends nothing for "default", nor for a choice the model does not take', async () => {
    const server = scripted();
    bench = projectBench(server);
    // `minimal` is GPT-5's alone; none of these models takes it.
    const untaken: ReasoningChoice = model(server).includes('gpt-5') ? 'off' : 'minimal';
    for (const choice of ['default', untaken] as const) {
      // Each project loads the script afresh, which clears the server's log.
      const { project } = await bench.project([reply.text('Hi.')], { env: { KEEL_HOME: bench.home, ...wire.env }, overrides: [wire.layer(server, { [model(server)]: choice })] });
      expect((await project.send('hello', recorder())).status).toBe('completed');
      expect(wire.absent(bodyOf(server, 0)), choice).toBeUndefined();
    }
  });
});

describe('the reasoning choice', () => {
  it('is found by the bare model id too, and a model without reasoning gets none', async () => {
    const server = scripted();
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('Hi.')], {
      overrides: [{ model: 'local/gpt-5', providers: { local: { baseURL: server.baseURL } }, reasoning: { 'gpt-5': 'minimal', 'gpt-4.1': 'high' } }],
    });
    expect((await project.send('hello', recorder())).status).toBe('completed');
    expect(bodyOf(server, 0).reasoning_effort).toBe('minimal');

    const plain = await bench.project([reply.text('Hi.')], { overrides: [{ model: 'local/gpt-4.1', providers: { local: { baseURL: server.baseURL } }, reasoning: { 'gpt-4.1': 'high' } }] });
    expect((await plain.project.send('hello', recorder())).status).toBe('completed');
    expect(server.requests).toHaveLength(1);
    expect(bodyOf(server, 0)).not.toHaveProperty('reasoning_effort');
  });

  it('follows the provider config where it describes a model the catalogue does not know', async () => {
    const server = scripted();
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('Hi.')], {
      overrides: [
        {
          model: 'local/my-reasoner',
          providers: { local: { baseURL: server.baseURL, models: { 'my-reasoner': { reasoning: { style: 'effort', levels: ['low', 'high'] } } } } },
          reasoning: { 'local/my-reasoner': 'high' },
        },
      ],
    });
    expect((await project.send('hello', recorder())).status).toBe('completed');
    expect(bodyOf(server, 0).reasoning_effort).toBe('high');
  });

  it('changed between messages applies to the next one, and the conversation goes on where it was', async () => {
    const server = scripted();
    bench = projectBench(server);
    const layer = (effort: ReasoningChoice): ConfigLayer => ({ model: 'local/gpt-5-mini', providers: { local: { baseURL: server.baseURL } }, reasoning: { 'local/gpt-5-mini': effort } });
    const { project } = await bench.project([reply.text('First answer.'), reply.text('Second answer.')], { overrides: [layer('low')] });
    expect((await project.send('first question', recorder())).status).toBe('completed');
    // The settings changed: a new Context, the same conversation (as the host does on a settings change).
    const changed = await Context.create({ folders: [{ path: bench.ws }], host: createFsHost(), env: { KEEL_HOME: bench.home }, overrides: [layer('high')] });
    project.useContext(changed);
    expect((await project.send('second question', recorder())).status).toBe('completed');
    expect(bodyOf(server, 0).reasoning_effort).toBe('low');
    const second = bodyOf(server, 1);
    expect(second.reasoning_effort).toBe('high');
    const texts = JSON.stringify(second.messages);
    expect(texts).toContain('first question');
    expect(texts).toContain('First answer.');
    // Append-only: the second request starts with the whole of the first's messages.
    const before = bodyOf(server, 0).messages as unknown[];
    expect((second.messages as unknown[]).slice(0, before.length + 1)).toEqual([...before, expect.objectContaining({ role: 'assistant' })]);
  });

  it('is the person\'s: a workspace config file that sets one is ignored', async () => {
    const server = scripted();
    bench = projectBench(server);
    bench.write('.keel/config.json', JSON.stringify({ reasoning: { 'local/gpt-5-mini': 'high' } }));
    const { ctx, project } = await bench.project([reply.text('Hi.')], { overrides: [{ model: 'local/gpt-5-mini', providers: { local: { baseURL: server.baseURL } } }] });
    expect((await project.send('hello', recorder())).status).toBe('completed');
    expect(bodyOf(server, 0)).not.toHaveProperty('reasoning_effort');
    expect(ctx.warnings.join('\n')).toContain('reasoning');
  });
});
