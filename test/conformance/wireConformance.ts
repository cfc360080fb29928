// The wire conformance suite: what Keel's loop must get from EVERY model source (Keel's lean
// wires, the AI SDK's providers, vscode.lm, plugins' providers), over real HTTP to the
// scripted server. Framework-neutral (node:assert), so the unit tier (vitest) runs it for the
// HTTP sources and the integration tier (mocha in VS Code) for vscode.lm.
import * as assert from 'node:assert/strict';
import type { LanguageModel, ModelMessage } from 'ai';
import { runLoop } from '../../src/core/loop/loop';
import type { LoopEvent, LoopOptions, LoopResult, LoopToolCall, LoopToolSpec } from '../../src/core/loop/loopTypes';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../fixtures/scriptedServer/scenarioTypes.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';

/** What a source can carry; a case whose capability a source lacks checks what it does instead. */
export interface SourceTraits {
  /** Streams reasoning (reasoning_content / reasoning summaries) as reasoning deltas. */
  reasoning: boolean;
  /** Reports the server's usage numbers exactly (vscode.lm counts with a tokenizer instead). */
  exactUsage: boolean;
  /** HTTP failures keep their status, so 429/5xx and dropped connections are retried. */
  httpStatus: boolean;
  /**
   * The model's argument text reaches the loop as it was sent. vscode.lm takes tool input as
   * a parsed object, so there a malformed call fails inside the providing extension.
   */
  rawArguments: boolean;
  /**
   * The provider signs its reasoning (Anthropic's thinking signatures): the kept reasoning part
   * carries the signature under `providerOptions[signsReasoning]`, to be sent back next turn.
   */
  signsReasoning?: string;
}

export interface ModelSource {
  name: string;
  traits: SourceTraits;
  /** The model, talking to this server (directly, or through whatever the source is). */
  model(server: ScriptedServer): LanguageModel | Promise<LanguageModel>;
}

export interface WireCase {
  name: string;
  run(server: ScriptedServer): Promise<void>;
}

const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
const tools: Record<string, LoopToolSpec> = {
  read: { description: 'read a file', parameters: schema({ file_path: { type: 'string' } }), readOnly: true },
  ls: { description: 'list a folder', parameters: schema({ dir: { type: 'string' } }), readOnly: true },
};

interface Run {
  result: LoopResult;
  events: LoopEvent[];
  calls: LoopToolCall[];
}

type RunOptions = Partial<LoopOptions> & { abortOn?: (events: LoopEvent[]) => boolean };

async function run(source: ModelSource, server: ScriptedServer, turns: Turn[], over: RunOptions = {}): Promise<Run> {
  server.load({ turns });
  const events: LoopEvent[] = [];
  const calls: LoopToolCall[] = [];
  const controller = new AbortController();
  const messages: ModelMessage[] = [{ role: 'user', content: 'hello' }];
  const { abortOn, ...rest } = over;
  const result = await runLoop({
    model: await source.model(server),
    system: 'You are a conformance test.',
    messages,
    tools,
    maxTurns: 5,
    signal: controller.signal,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    executeTool: async (call) => {
      calls.push(call);
      return { output: `ran ${call.toolName} ${JSON.stringify(call.input)}` };
    },
    onEvent: (e) => {
      events.push(e);
      if (abortOn?.(events)) controller.abort();
    },
    ...rest,
  });
  return { result, events, calls };
}

const deltas = (events: LoopEvent[], type: 'text_delta' | 'reasoning_delta') =>
  events.flatMap((e) => (e.type === type ? [e.text] : []));
/** Waits for something the server records (never a fixed time). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const retries = (events: LoopEvent[]) => events.filter((e) => e.type === 'retry').length;

export function wireCases(source: ModelSource): WireCase[] {
  const t = source.traits;
  return [
    {
      name: 'streams text in several deltas that make the whole answer, and reports usage',
      async run(server) {
        // Paced, so the pieces arrive apart (what arrives together may come as one delta).
        const { result, events } = await run(source, server, [
          reply.text('The answer is 42, said the model.', { delayMs: 15, usage: { prompt_tokens: 123, completion_tokens: 45 } }),
        ]);
        assert.equal(result.status, 'completed');
        const texts = deltas(events, 'text_delta');
        assert.ok(texts.length >= 3, `streamed in pieces as they arrived (${texts.length})`);
        assert.ok(texts.every((d) => d !== ''), 'no empty deltas');
        assert.equal(texts.join(''), 'The answer is 42, said the model.');
        assert.deepEqual(result.messages, [{ role: 'assistant', content: [{ type: 'text', text: 'The answer is 42, said the model.' }] }]);
        if (t.exactUsage) assert.deepEqual(result.usage, { inputTokens: 123, outputTokens: 45 });
        else assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0, `usage counted: ${JSON.stringify(result.usage)}`);
        const usage = events.find((e) => e.type === 'usage');
        assert.ok(usage, 'a usage event');
      },
    },
    {
      name: 'delivers a long burst whole, in order',
      async run(server) {
        const { result, events } = await run(source, server, [{ tokens: 3000, usage: { prompt_tokens: 9, completion_tokens: 3000 } }]);
        assert.equal(result.status, 'completed', result.error?.message);
        const text = deltas(events, 'text_delta').join('');
        assert.equal(text, result.text);
        assert.equal(text.split(' ').length, 3000);
        if (t.exactUsage) assert.equal(result.usage.outputTokens, 3000);
      },
    },
    {
      name: 'gathers fragmented tool-call arguments into one call and feeds the result back',
      async run(server) {
        const { result, calls, events } = await run(source, server, [
          reply.tool('read', { file_path: 'src/deeply/nested/file.ts' }),
          { ...reply.text('The file is fine.'), match: { lastToolResultIncludes: 'ran read {"file_path":"src/deeply/nested/file.ts"}' } },
        ]);
        assert.equal(result.status, 'completed', result.error?.message);
        assert.deepEqual(
          calls.map((c) => ({ toolName: c.toolName, input: c.input })),
          [{ toolName: 'read', input: { file_path: 'src/deeply/nested/file.ts' } }],
        );
        assert.equal(result.text, 'The file is fine.');
        assert.equal(server.pendingTurns(), 0);
        const use = events.find((e) => e.type === 'tool_use');
        assert.ok(use && use.type === 'tool_use' && use.toolCallId !== '', 'the call has an id');
        const assistant = result.messages[0] as Extract<ModelMessage, { role: 'assistant' }>;
        const part = (assistant.content as { type: string; toolCallId?: string }[]).find((p) => p.type === 'tool-call');
        const toolMessage = result.messages[1] as Extract<ModelMessage, { role: 'tool' }>;
        assert.equal(toolMessage.content[0].type === 'tool-result' ? toolMessage.content[0].toolCallId : '', part?.toolCallId, 'the result answers that call');
      },
    },
    {
      name: 'keeps two calls of one turn apart, each with its own id and input',
      async run(server) {
        const { result, calls } = await run(source, server, [
          reply.tools([
            { id: 'call_a', name: 'read', arguments: { file_path: 'a.ts' } },
            { id: 'call_b', name: 'ls', arguments: { dir: 'src' } },
          ]),
          reply.text('done'),
        ]);
        assert.equal(result.status, 'completed', result.error?.message);
        assert.deepEqual(
          calls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input })),
          [
            { id: 'call_a', name: 'read', input: { file_path: 'a.ts' } },
            { id: 'call_b', name: 'ls', input: { dir: 'src' } },
          ],
        );
      },
    },
    {
      name: t.rawArguments ? 'turns malformed tool arguments into an error result for the model' : 'runs no tool for malformed arguments',
      async run(server) {
        const { result, calls } = await run(source, server, [
          reply.tool('read', '{"file_path": "a'),
          { ...reply.text('sorry'), match: { lastToolResultIncludes: 'Invalid call' } },
        ]);
        if (!t.rawArguments) {
          assert.equal(calls.length, 0, 'the tool did not run');
          assert.equal(result.status, 'error');
          return;
        }
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(calls.length, 0, 'the tool did not run');
        assert.equal(result.text, 'sorry');
      },
    },
    {
      name: t.reasoning ? 'streams reasoning before the text, kept with the answer' : 'answers with the text when the model also reasons',
      async run(server) {
        const { result, events } = await run(source, server, [reply.text('Done.', { reasoning: 'First I think, then I answer.', delayMs: 15 })]);
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(result.text, 'Done.');
        const reasoning = deltas(events, 'reasoning_delta');
        if (!t.reasoning) {
          assert.deepEqual(reasoning, []);
          return;
        }
        assert.ok(reasoning.length >= 3, `reasoning streamed in pieces as they arrived (${reasoning.length})`);
        assert.equal(reasoning.join(''), 'First I think, then I answer.');
        const firstReasoning = events.findIndex((e) => e.type === 'reasoning_delta');
        const firstText = events.findIndex((e) => e.type === 'text_delta');
        assert.ok(firstReasoning < firstText, 'reasoning comes first');
        const kept = result.messages[0] as Extract<ModelMessage, { role: 'assistant' }>;
        const signature = (kept.content as Array<{ providerOptions?: Record<string, Record<string, unknown>> }>)[0]?.providerOptions;
        if (t.signsReasoning) {
          assert.equal(typeof signature?.[t.signsReasoning]?.signature, 'string', `the reasoning keeps its signature: ${JSON.stringify(kept)}`);
        }
        // What a provider attaches to its reasoning (a signature, an item id) is kept for it; the rest is the same everywhere.
        const withoutSignature = (kept.content as Array<Record<string, unknown>>).map(({ providerOptions: _, ...part }) => part);
        assert.deepEqual({ role: kept.role, content: withoutSignature }, {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'First I think, then I answer.' },
            { type: 'text', text: 'Done.' },
          ],
        });
      },
    },
    {
      name: 'reports an error body’s message and status, without retrying a 400',
      async run(server) {
        const { result } = await run(source, server, [reply.status(400, { error: { message: 'bad tool schema', type: 'invalid_request_error', code: null } })]);
        assert.equal(result.status, 'error');
        assert.match(result.error?.message ?? '', /bad tool schema/);
        if (t.httpStatus) assert.equal(result.error?.statusCode, 400);
        assert.equal(server.requests.length, 1, 'not retried');
      },
    },
    {
      name: 'recognises a context-length error and recovers by leaving out older messages',
      async run(server) {
        const history: ModelMessage[] = [
          { role: 'user', content: 'old question '.repeat(50) },
          { role: 'assistant', content: [{ type: 'text', text: 'old answer '.repeat(50) }] },
          { role: 'user', content: 'new question' },
        ];
        const { result, events } = await run(source, server, [reply.contextLengthExceeded(100), reply.text('fits now')], { messages: history });
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(result.text, 'fits now');
        assert.ok(events.some((e) => e.type === 'context_trimmed'), 'older messages were left out');
      },
    },
    {
      name: t.httpStatus ? 'retries a 429 (honouring retry-after) and a 503, then answers' : 'reports a rate limit as an error',
      async run(server) {
        const { result, events } = await run(source, server, [reply.rateLimited(0.001), reply.status(503), reply.text('finally')]);
        if (!t.httpStatus) {
          assert.equal(result.status, 'error');
          assert.match(result.error?.message ?? '', /rate limit/);
          return;
        }
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(result.text, 'finally');
        assert.equal(retries(events), 2);
        const first = events.find((e) => e.type === 'retry');
        assert.equal(first?.type === 'retry' ? first.delayMs : -1, 1, 'the server’s retry-after');
        assert.equal(server.requests.length, 3);
      },
    },
    {
      name: t.httpStatus ? 'gives up after five failed attempts with the last status' : 'reports a server error',
      async run(server) {
        const { result, events } = await run(source, server, [{ ...reply.status(500), repeat: 5 }]);
        assert.equal(result.status, 'error');
        if (!t.httpStatus) return;
        assert.equal(result.error?.statusCode, 500);
        assert.equal(server.requests.length, 5);
        assert.equal(retries(events), 4);
      },
    },
    {
      name: 'retries a connection dropped mid-stream, discarding the partial answer',
      async run(server) {
        const { result, events } = await run(source, server, [{ ...reply.text('partial words here'), drop: 'midStream', afterChunks: 3 }, reply.text('whole answer')]);
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(result.text, 'whole answer');
        assert.equal(retries(events), 1);
        assert.deepEqual(result.messages, [{ role: 'assistant', content: [{ type: 'text', text: 'whole answer' }] }]);
      },
    },
    {
      name: 'retries a connection dropped before the headers',
      async run(server) {
        const { result, events } = await run(source, server, [reply.dropBeforeHeaders(), reply.text('second try')]);
        assert.equal(result.status, 'completed', result.error?.message);
        assert.equal(result.text, 'second try');
        assert.equal(retries(events), 1);
      },
    },
    {
      name: 'ends with the error a stream reports after it started',
      async run(server) {
        const { result } = await run(source, server, [
          { ...reply.text('partial answer that is cut'), afterChunks: 3, streamError: { message: 'the model is overloaded', code: 'server_error' } },
        ]);
        assert.equal(result.status, 'error');
        assert.match(result.error?.message ?? '', /the model is overloaded/);
      },
    },
    {
      name: 'on cancel mid-stream keeps the partial answer and stops',
      async run(server) {
        const { result, events } = await run(source, server, [reply.text('one two three four five six seven eight', { chunkSize: 4, delayMs: 40 })], {
          abortOn: (seen) => deltas(seen, 'text_delta').length === 2,
        });
        assert.equal(result.status, 'cancelled');
        const kept = events.find((e) => e.type === 'message');
        assert.ok(kept && kept.type === 'message' && kept.partial === true, 'the partial message is kept');
        const text = JSON.stringify(kept.message);
        assert.ok(text.includes('one two '), text);
        assert.ok(!text.includes('eight'), text);
      },
    },
    {
      name: 'cancelling a request that hangs ends the run',
      async run(server) {
        const controller = new AbortController();
        const pending = run(source, server, [reply.hang()], { signal: controller.signal });
        await until(() => server.requests.length === 1);
        controller.abort();
        const { result } = await pending;
        assert.equal(result.status, 'cancelled');
        assert.deepEqual(result.messages, []);
      },
    },
  ];
}
