// `keel run` as it ships, per provider kind: Anthropic and Gemini (the Gemini API's and Vertex's,
// Vertex's token from google-auth-library, a bundle file of its own loaded on first use) on Keel's
// own wires, Bedrock through the AI SDK's provider (a bundle file of its own, loaded only when a
// model of that kind streams), Azure OpenAI on Keel's lean Responses wire: whole-process CPU per
// 1,000 streamed tokens (a 5,000-token answer less a 1-token one, back to back), and the startup
// of a 1-token answer, which includes loading what that provider needs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bench, BenchSuite } from './benchTypes';
import { runCpu, setup, teardown } from './cli.bench';
import type { ModelSetup, State } from './cli.bench';

const TOKENS = 5000;

interface Provider {
  name: string;
  /** The person's config (written to $KEEL_HOME/config.json) and environment for this provider. */
  config: (s: State) => Record<string, unknown>;
  env: (s: State) => Record<string, string>;
}

const providers: Provider[] = [
  {
    name: 'Anthropic Messages',
    config: (s) => ({ model: 'a/claude-sonnet-4-5', providers: { a: { preset: 'anthropic', baseURL: s.server.baseURL } } }),
    env: () => ({ ANTHROPIC_API_KEY: 'bench' }),
  },
  {
    name: 'Gemini API',
    config: (s) => ({ model: 'g/gemini-2.5-flash', providers: { g: { preset: 'google', baseURL: `${s.server.url}/v1beta` } } }),
    env: () => ({ GOOGLE_GENERATIVE_AI_API_KEY: 'bench' }),
  },
  {
    name: 'Vertex AI Gemini (ADC from a metadata server)',
    config: (s) => ({ model: 'v/gemini-2.5-flash', providers: { v: { preset: 'vertex', baseURL: s.server.url, project: 'bench', region: 'us-central1' } } }),
    env: (s) => ({ GCE_METADATA_HOST: new URL(s.server.url).host, METADATA_SERVER_DETECTION: 'assume-present', CLOUDSDK_CONFIG: join(s.dir, 'gcloud') }),
  },
  {
    name: 'Amazon Bedrock Converse (SigV4)',
    config: (s) => ({ model: 'b/anthropic.claude-sonnet-4-5-v1:0', providers: { b: { preset: 'bedrock', baseURL: s.server.url, region: 'us-east-1' } } }),
    env: () => ({ AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench' }),
  },
  {
    name: 'Azure OpenAI Responses (lean wire)',
    config: (s) => ({ model: 'az/bench-deployment', providers: { az: { preset: 'azure', baseURL: `${s.server.url}/openai` } } }),
    env: () => ({ AZURE_API_KEY: 'bench' }),
  },
];

function configured(s: State, p: Provider): ModelSetup {
  const home = join(s.dir, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify(p.config(s)));
  return { args: [], env: p.env(s) };
}

const bench = (name: string, target: string, limit: number, unit: string, run: (s: State) => Promise<number>): Bench<State> => ({
  name,
  target,
  limit,
  unit,
  runs: 5,
  setup,
  run,
  teardown,
});

export const suite: BenchSuite = {
  name: 'cli providers',
  benches: providers.flatMap((p) => [
    bench(`\`keel run\` whole-process CPU per 1,000 streamed tokens, ${p.name}`, '< 10 ms', 10, 'ms', async (s) => {
      const model = configured(s, p);
      const long = await runCpu(s, TOKENS, model);
      const short = await runCpu(s, 1, model);
      return ((long - short) * 1000) / (TOKENS / 1000);
    }),
    bench(`\`keel run\` startup CPU, ${p.name} (a 1-token answer, whole process)`, '< 0.25 s', 0.25, 's', (s) => runCpu(s, 1, configured(s, p))),
  ]),
};
