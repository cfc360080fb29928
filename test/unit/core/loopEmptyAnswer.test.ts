// Issue #11, reproduction 6 at the loop: an empty answer (no text, no tool call) is a provider
// fault, retried with the same policy as a dropped stream, and an error when it persists.
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/core/loop/loop';
import type { LoopEvent } from '../../../src/core/loop/loopTypes';
import { isEmptyAnswer, isRetryable, EmptyAnswerError } from '../../../src/core/loop/retry';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

async function run(turns: Turn[]) {
  server.load({ turns });
  const events: LoopEvent[] = [];
  const result = await runLoop({
    model: createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).chat('scripted-model'),
    system: 'You are a test.',
    messages: [{ role: 'user', content: 'hello' }],
    tools: { ls: { description: 'list', parameters: { type: 'object', properties: {} }, readOnly: true } },
    maxTurns: 10,
    signal: new AbortController().signal,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    executeTool: async () => ({ output: 'a.txt' }),
    onEvent: (e) => events.push(e),
  });
  return { result, retries: events.filter((e) => e.type === 'retry') };
}

describe('an empty model answer', () => {
  it('is retried and the next real answer completes the run', async () => {
    const { result, retries } = await run([reply.text(''), reply.text('hello')]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('hello');
    expect(retries).toHaveLength(1);
  });

  it('after a tool result is retried too', async () => {
    const { result, retries } = await run([reply.tool('ls', {}), reply.text('   '), reply.text('found a.txt')]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('found a.txt');
    expect(retries).toHaveLength(1);
  });

  it('that persists through every attempt is an error with a clear message', async () => {
    const { result, retries } = await run([{ ...reply.text(''), repeat: 5 }]);
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/^The model sent an empty answer \(no text and no tool call\)/);
    expect(retries).toHaveLength(4);
    expect(server.pendingTurns()).toBe(0);
  });

  it('is judged by text and calls: reasoning alone is empty, a call alone is not', () => {
    expect(isEmptyAnswer({ text: '', calls: [] })).toBe(true);
    expect(isEmptyAnswer({ text: ' \n', calls: [] })).toBe(true);
    expect(isEmptyAnswer({ text: '', calls: [{}] })).toBe(false);
    expect(isRetryable(new EmptyAnswerError())).toBe(true);
  });
});
