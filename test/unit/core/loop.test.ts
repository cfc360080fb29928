import { createOpenAI } from '@ai-sdk/openai';
import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/core/loop/loop';
import type { LoopEvent, LoopOptions, LoopToolCall, LoopToolSpec } from '../../../src/core/loop/loopTypes';
import type { ToolResult } from '../../../src/core/tools/tool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.load({ turns: [] }));

const objectSchema = (props: Record<string, unknown> = {}) => ({ type: 'object', properties: props });
const tools: Record<string, LoopToolSpec> = {
  read: { description: 'read a file', parameters: objectSchema({ file_path: { type: 'string' } }), readOnly: true },
  grep: { description: 'search', parameters: objectSchema({ pattern: { type: 'string' } }), readOnly: true },
  bash: { description: 'run', parameters: objectSchema({ command: { type: 'string' } }), readOnly: false },
};

function run(turns: Turn[], over: Partial<LoopOptions> & { exec?: (c: LoopToolCall, s: AbortSignal) => Promise<ToolResult> } = {}) {
  server.load({ turns });
  const events: LoopEvent[] = [];
  const calls: LoopToolCall[] = [];
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).chat('scripted-model');
  const messages: ModelMessage[] = [{ role: 'user', content: 'hello' }];
  const promise = runLoop({
    model,
    system: 'You are a test.',
    messages,
    tools,
    maxTurns: 50,
    signal: new AbortController().signal,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    executeTool: async (c, s) => {
      calls.push(c);
      return over.exec ? over.exec(c, s) : { output: `ran ${c.toolName}` };
    },
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { promise, events, calls };
}

const texts = (events: LoopEvent[]) => events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text);

describe('runLoop', () => {
  it('streams text in deltas and completes', async () => {
    const { promise, events } = run([reply.text('Hello there, friend.', { chunkSize: 3, usage: { prompt_tokens: 11, completion_tokens: 5 } })]);
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(r.text).toBe('Hello there, friend.');
    expect(texts(events).length).toBeGreaterThan(3);
    expect(texts(events).join('')).toBe('Hello there, friend.');
    expect(r.usage).toEqual({ inputTokens: 11, outputTokens: 5 });
    expect(r.messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Hello there, friend.' }] }]);
  });

  it('runs a tool call and feeds the result back to the model', async () => {
    const { promise, calls } = run([
      reply.tool('read', { file_path: 'src/a.ts' }),
      { ...reply.text('The file says hi.'), match: { lastToolResultIncludes: 'ran read' } },
    ]);
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(calls).toEqual([expect.objectContaining({ toolName: 'read', input: { file_path: 'src/a.ts' } })]);
    expect(r.turns).toBe(2);
    expect(r.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(server.pendingTurns()).toBe(0);
  });

  it('sends tool errors back marked as errors and keeps going', async () => {
    const { promise } = run(
      [reply.tool('bash', { command: 'false' }), { ...reply.text('ok, it failed'), match: { lastToolResultIncludes: 'exit code 1' } }],
      { exec: async () => ({ output: 'exit code 1', isError: true }) },
    );
    const r = await promise;
    expect(r.status).toBe('completed');
    const tool = r.messages[1] as Extract<ModelMessage, { role: 'tool' }>;
    expect(tool.content[0]).toMatchObject({ type: 'tool-result', output: { type: 'error-text', value: 'exit code 1' } });
  });

  it('runs read-only calls of a turn in parallel and other calls in order', async () => {
    const started: string[] = [];
    let releaseFirst!: () => void;
    const firstGate = new Promise<void>((r) => (releaseFirst = r));
    const { promise } = run(
      [
        reply.tools([
          { name: 'read', arguments: { file_path: 'a' } },
          { name: 'grep', arguments: { pattern: 'x' } },
          { name: 'bash', arguments: { command: 'one' } },
          { name: 'bash', arguments: { command: 'two' } },
        ]),
        reply.text('done'),
      ],
      {
        exec: async (c) => {
          const key = `${c.toolName}:${JSON.stringify(c.input)}`;
          started.push(key);
          // The first read only finishes once the grep has started: sequential execution would stall here.
          if (c.toolName === 'read') await firstGate;
          if (c.toolName === 'grep') releaseFirst();
          return { output: key };
        },
      },
    );
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(started).toEqual(['read:{"file_path":"a"}', 'grep:{"pattern":"x"}', 'bash:{"command":"one"}', 'bash:{"command":"two"}']);
  });

  it('retries 429 and 5xx with backoff, reporting each retry', async () => {
    const { promise, events } = run([reply.rateLimited(0), reply.status(503), reply.text('finally')]);
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(r.text).toBe('finally');
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  it('honours retry-after from the server', async () => {
    const { promise, events } = run([reply.rateLimited(0.002), reply.text('ok')], { retry: { baseDelayMs: 10_000, maxDelayMs: 60_000 } });
    await promise;
    const retry = events.find((e) => e.type === 'retry') as { delayMs: number };
    expect(retry.delayMs).toBe(2);
  });

  it('gives up after five attempts', async () => {
    const { promise, events } = run([{ ...reply.status(500), repeat: 5 }]);
    const r = await promise;
    expect(r.status).toBe('error');
    expect(r.error?.statusCode).toBe(500);
    expect(server.requests).toHaveLength(5);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(4);
  });

  it('does not retry a 400', async () => {
    const { promise } = run([reply.contextLengthExceeded()]);
    const r = await promise;
    expect(r.status).toBe('error');
    expect(r.error?.message).toMatch(/maximum context length/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a connection dropped mid-stream, discarding the partial text', async () => {
    const { promise, events } = run([{ ...reply.text('partial words here'), drop: 'midStream', afterChunks: 3 }, reply.text('whole answer')]);
    const r = await promise;
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('completed');
    expect(r.text).toBe('whole answer');
    expect(events.some((e) => e.type === 'retry')).toBe(true);
  });

  it('stops at the turn cap', async () => {
    const loopForever = { ...reply.tool('read', { file_path: 'a' }), repeat: 10 };
    const { promise, calls } = run([loopForever], { maxTurns: 3 });
    const r = await promise;
    expect(r.status).toBe('max_turns');
    expect(r.turns).toBe(3);
    expect(calls).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
  });

  it('turns malformed tool arguments into an error result for the model', async () => {
    const { promise, calls } = run([reply.tool('read', '{"file_path": "a'), { ...reply.text('sorry'), match: { lastToolResultIncludes: 'Invalid call' } }]);
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(calls).toHaveLength(0);
  });

  it('on cancel mid-stream keeps the partial text and stops', async () => {
    const controller = new AbortController();
    const events: LoopEvent[] = [];
    const { promise } = run([reply.text('one two three four five six seven eight', { chunkSize: 4, delayMs: 40 })], {
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'text_delta' && texts(events).length === 2) controller.abort();
      },
    });
    const r = await promise;
    expect(r.status).toBe('cancelled');
    const kept = events.find((e) => e.type === 'message') as { message: ModelMessage; partial?: boolean };
    expect(kept.partial).toBe(true);
    expect(JSON.stringify(kept.message)).toContain('one two ');
    expect(JSON.stringify(kept.message)).not.toContain('eight');
  });

  it('on cancel during a tool gives every call of the turn a result', async () => {
    const controller = new AbortController();
    const { promise } = run(
      [reply.tools([{ name: 'bash', arguments: { command: 'sleep 100' } }, { name: 'bash', arguments: { command: 'echo never' } }])],
      {
        signal: controller.signal,
        exec: (c, s) =>
          new Promise((resolve) => {
            s.addEventListener('abort', () => resolve({ output: 'killed', isError: true }), { once: true });
            setTimeout(() => controller.abort(), 10);
          }),
      },
    );
    const r = await promise;
    expect(r.status).toBe('cancelled');
    const toolMsg = r.messages.find((m) => m.role === 'tool') as Extract<ModelMessage, { role: 'tool' }>;
    expect(toolMsg.content).toHaveLength(2);
    expect(JSON.stringify(toolMsg.content[1])).toMatch(/Cancelled by the user/);
    expect(server.requests).toHaveLength(1);
  });

  it('cancelling a request that hangs ends the run', async () => {
    const controller = new AbortController();
    const { promise } = run([reply.hang()], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const r = await promise;
    expect(r.status).toBe('cancelled');
    expect(r.messages).toEqual([]);
  });
});
