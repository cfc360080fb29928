import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { runLoop } from '../../src/core/loop/loop';
import { leanChatModel, leanResponsesModel } from '../../src/core/model/wire/leanModels';
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

type ModelOf = (s: ServerProcess) => LanguageModel;
const endpoint = (s: ServerProcess) => ({ baseURL: s.baseURL, apiKey: 'bench' });
const leanChat: ModelOf = (s) => leanChatModel('bench', 'scripted-model', 'compatible', endpoint(s));
const leanResponses: ModelOf = (s) => leanResponsesModel('bench', 'scripted-model', endpoint(s));
const sdkChat: ModelOf = (s) => createOpenAI(endpoint(s)).chat('scripted-model');
const sdkResponses: ModelOf = (s) => createOpenAI(endpoint(s)).responses('scripted-model');

const loopRun = (modelOf: ModelOf) => (server: ServerProcess) =>
  cpuPer1k(async () => {
    let text = '';
    const r = await runLoop({
      model: modelOf(server),
      system: 'bench',
      messages: [{ role: 'user', content: 'stream' }],
      tools: {},
      executeTool: async () => ({ output: '' }),
      maxTurns: 1,
      signal: new AbortController().signal,
      onEvent: (e) => {
        if (e.type === 'text_delta') text += e.text;
      },
    });
    // Deltas that arrive together may come as one: count the words.
    const words = text.split(' ').length;
    if (r.status !== 'completed' || words !== TOKENS) throw new Error(`stream incomplete: ${r.status}, ${words} words`);
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
 * another process: HTTP, parsing and Keel's loop, everything the extension host pays. The
 * last two rows are the same loop on the AI SDK's own providers (the generic `doStream` path
 * that vscode.lm and plugins' providers take), for comparison.
 */
export const suite: BenchSuite = {
  name: 'loop',
  benches: [
    withServer('loop host CPU per 1,000 streamed tokens, Chat Completions', '< 5 ms', 5, loopRun(leanChat)),
    withServer('loop host CPU per 1,000 streamed tokens, Responses', '< 5 ms', 5, loopRun(leanResponses)),
    withServer('(reference) same loop on the AI SDK chat provider', 'info', Number.POSITIVE_INFINITY, loopRun(sdkChat)),
    withServer('(reference) same loop on the AI SDK Responses provider', 'info', Number.POSITIVE_INFINITY, loopRun(sdkResponses)),
  ],
};
