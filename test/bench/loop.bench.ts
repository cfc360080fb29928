import { createOpenAI } from '@ai-sdk/openai';
import { experimental_streamTextLowMemory as streamText } from 'ai';
import { runLoop } from '../../src/core/loop/loop';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';

const TOKENS = 5000;

async function serverWithStream(): Promise<ServerProcess> {
  const server = await spawnScriptedServer();
  await server.load({ turns: [], fallback: { tokens: TOKENS, chunkSize: 1 } });
  return server;
}

/** CPU (user + system) of this process per 1,000 tokens while `fn` streams TOKENS tokens. */
async function cpuPer1k(fn: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (TOKENS / 1000);
}

const model = (s: ServerProcess) => createOpenAI({ baseURL: s.baseURL, apiKey: 'bench' }).chat('scripted-model');

const loopRun = (server: ServerProcess) =>
  cpuPer1k(async () => {
    let deltas = 0;
    const r = await runLoop({
      model: model(server),
      system: 'bench',
      messages: [{ role: 'user', content: 'stream' }],
      tools: {},
      executeTool: async () => ({ output: '' }),
      maxTurns: 1,
      signal: new AbortController().signal,
      onEvent: (e) => {
        if (e.type === 'text_delta') deltas++;
      },
    });
    if (r.status !== 'completed' || deltas < TOKENS) throw new Error(`stream incomplete: ${r.status}, ${deltas} deltas`);
  });

const sdkOnly = (server: ServerProcess) =>
  cpuPer1k(async () => {
    const r = streamText({ model: model(server), messages: [{ role: 'user', content: 'stream' }], maxRetries: 0 });
    for await (const part of r.stream) void part;
  });

const withServer = (name: string, target: string, limit: number, run: (s: ServerProcess) => Promise<number>): Bench<ServerProcess> => ({
  name,
  target,
  limit,
  unit: 'ms',
  runs: 7,
  setup: serverWithStream,
  run,
  teardown: (s) => s.close(),
});

/**
 * Host CPU per 1,000 tokens streamed one token per chunk (as OpenAI streams), model server in
 * another process. The first row is what the extension host pays in all; the second is the AI
 * SDK's share alone, so the difference is Keel's own loop.
 */
export const suite: BenchSuite = {
  name: 'loop',
  benches: [
    withServer(`loop host CPU per 1,000 streamed tokens`, '< 5 ms', 5, loopRun),
    withServer(`(baseline) AI SDK stream alone, same tokens`, 'info', Number.POSITIVE_INFINITY, sdkOnly),
  ],
};
