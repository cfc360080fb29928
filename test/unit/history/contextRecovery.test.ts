import { createOpenAI } from '@ai-sdk/openai';
import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/core/loop/loop';
import type { LoopEvent, LoopToolSpec } from '../../../src/core/loop/loopTypes';
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

const tools: Record<string, LoopToolSpec> = {
  read: { description: 'read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } } }, readOnly: true },
};

/** A conversation of `n` earlier exchanges (question, read call, its result, answer), then a new question. */
function history(n: number, latest = 'What does config.ts export?'): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ role: 'user', content: `old question ${i}` });
    out.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `old${i}`, toolName: 'read', input: { file_path: `f${i}.ts` } }] });
    out.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `old${i}`, toolName: 'read', output: { type: 'text', value: `file ${i} `.repeat(300) } }] });
    out.push({ role: 'assistant', content: [{ type: 'text', text: `old answer ${i}` }] });
  }
  out.push({ role: 'user', content: latest });
  return out;
}

function run(turns: Turn[], messages: ModelMessage[]) {
  server.load({ turns });
  const events: LoopEvent[] = [];
  const promise = runLoop({
    model: createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).chat('scripted-model'),
    system: 'You are a test.',
    messages,
    tools,
    maxTurns: 10,
    signal: new AbortController().signal,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    executeTool: async (c) => ({ output: `contents of ${JSON.stringify(c.input)}` }),
    onEvent: (e) => events.push(e),
  });
  return { promise, events };
}

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}
const sentMessages = (i: number) => server.requests[i].body.messages as WireMessage[];

/** Every tool message answers a call of the assistant message before it (OpenAI wire format). */
function assertNoOrphanResults(messages: WireMessage[]): void {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      open.clear();
      for (const c of m.tool_calls ?? []) open.add(c.id);
    } else if (m.role === 'tool') {
      expect(open.has(m.tool_call_id ?? ''), `orphan tool result ${m.tool_call_id}`).toBe(true);
    } else {
      open.clear();
    }
  }
}

describe('context-too-long recovery in runLoop', () => {
  it('leaves out the oldest messages and retries; the latest user message goes intact', async () => {
    const { promise, events } = run([reply.contextLengthExceeded(), reply.text('It exports the config.')], history(12));
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(r.text).toBe('It exports the config.');
    expect(server.requests).toHaveLength(2);
    const [first, second] = [sentMessages(0), sentMessages(1)];
    expect(second.length).toBeLessThan(first.length);
    expect(JSON.stringify(first)).toContain('old question 0');
    expect(JSON.stringify(second)).not.toContain('old question 0');
    expect(second.at(-1)).toEqual({ role: 'user', content: 'What does config.ts export?' });
    expect(JSON.stringify(second)).toContain('history_search');
    assertNoOrphanResults(second);
    const trimmed = events.filter((e) => e.type === 'context_trimmed');
    expect(trimmed).toEqual([expect.objectContaining({ attempt: 1, maxAttempts: 3, droppedMessages: expect.any(Number) })]);
    // The run's own messages are unaffected: what the session logs is the new answer only.
    expect(r.messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'It exports the config.' }] }]);
  });

  it('keeps the current run\'s tool calls with their results when trimming mid-run', async () => {
    const { promise } = run(
      [reply.tool('read', { file_path: 'config.ts' }), reply.contextLengthExceeded(), reply.text('Done.')],
      history(8),
    );
    const r = await promise;
    expect(r.status).toBe('completed');
    const third = sentMessages(2);
    assertNoOrphanResults(third);
    expect(JSON.stringify(third)).toContain('What does config.ts export?');
    expect(JSON.stringify(third)).toContain('contents of {\\"file_path\\":\\"config.ts\\"}');
    expect(third.length).toBeLessThan(sentMessages(1).length);
  });

  it('keeps the trimmed history for the rest of the run instead of overflowing every turn', async () => {
    const { promise, events } = run(
      [reply.contextLengthExceeded(), reply.tool('read', { file_path: 'a.ts' }), reply.text('Done.')],
      history(10),
    );
    const r = await promise;
    expect(r.status).toBe('completed');
    expect(events.filter((e) => e.type === 'context_trimmed')).toHaveLength(1);
    expect(JSON.stringify(sentMessages(2))).not.toContain('old question 0');
  });

  it('gives up after three attempts with a plain message', async () => {
    const { promise, events } = run([{ ...reply.contextLengthExceeded(), repeat: 4 }], history(12));
    const r = await promise;
    expect(r.status).toBe('error');
    expect(server.requests).toHaveLength(4);
    expect(events.filter((e) => e.type === 'context_trimmed').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2, 3]);
    expect(r.error?.code).toBe('context_too_long');
    expect(r.error?.message).toMatch(/^The conversation is too long for the model's context window, even after leaving out older messages 3 times\. Nothing was lost/);
    expect(r.error?.message).toContain('maximum context length is 8192 tokens');
    // The last try sent only what must stay: the latest question.
    expect(JSON.stringify(sentMessages(3))).not.toContain('old answer');
    expect(sentMessages(3).map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(sentMessages(3).at(-1)).toEqual({ role: 'user', content: 'What does config.ts export?' });
  });

  it('says when the latest message alone is too long', async () => {
    const { promise } = run([reply.contextLengthExceeded()], [{ role: 'user', content: 'x'.repeat(1_000) }]);
    const r = await promise;
    expect(r.status).toBe('error');
    expect(server.requests).toHaveLength(1);
    expect(r.error?.message).toMatch(/^The latest message is too long for the model's context window on its own/);
  });
});
