// The scripted server's happy paths, as the real AI SDK (@ai-sdk/openai chat) receives them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateText } from 'ai';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { partsOfType, runStream, scriptedModel, testTools, textDeltas } from './sdkHarness.ts';

let server: ScriptedServer;

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  await server.close();
});

describe('scripted server streaming through the AI SDK', () => {
  it('delivers text in several deltas that concatenate to the scripted text', async () => {
    server.load({ turns: [reply.text('The answer is 42, said the model.')] });
    const run = await runStream({ server });
    const deltas = textDeltas(run.parts).filter((delta) => delta !== '');
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe('The answer is 42, said the model.');
    expect(partsOfType(run.parts, 'finish')[0].finishReason).toBe('stop');
    expect(run.reported).toEqual([]);
    expect(run.thrown).toBeUndefined();
  });

  it('honours chunkSize for literal text', async () => {
    server.load({ turns: [reply.text('abcdefghij', { chunkSize: 5 })] });
    const run = await runStream({ server });
    expect(textDeltas(run.parts).filter((delta) => delta !== '')).toEqual(['abcde', 'fghij']);
  });

  it('reassembles a tool call streamed in fragments into one call with parsed input', async () => {
    server.load({ turns: [reply.tool('read', { file_path: 'src/deeply/nested/file.ts' })] });
    const run = await runStream({ server });
    const inputDeltas = partsOfType(run.parts, 'tool-input-delta');
    expect(inputDeltas.length).toBeGreaterThan(5);
    expect(inputDeltas.map((part) => part.delta).join('')).toBe('{"file_path":"src/deeply/nested/file.ts"}');
    const calls = partsOfType(run.parts, 'tool-call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: 'read', input: { file_path: 'src/deeply/nested/file.ts' } });
    expect(calls[0].toolCallId).toMatch(/^call_/);
    expect(partsOfType(run.parts, 'finish')[0].finishReason).toBe('tool-calls');
  });

  it('delivers two tool calls of one turn as two calls with their own ids and inputs', async () => {
    server.load({
      turns: [
        reply.tools([
          { id: 'call_a', name: 'read', arguments: { file_path: 'a.ts' } },
          { id: 'call_b', name: 'ls', arguments: { dir: 'src' } },
        ]),
      ],
    });
    const run = await runStream({ server });
    const calls = partsOfType(run.parts, 'tool-call').map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }));
    expect(calls).toEqual([
      { toolCallId: 'call_a', toolName: 'read', input: { file_path: 'a.ts' } },
      { toolCallId: 'call_b', toolName: 'ls', input: { dir: 'src' } },
    ]);
  });

  it('passes malformed argument strings through verbatim so the SDK reports an invalid call', async () => {
    server.load({ turns: [reply.tool('read', '{"file_path": "a.ts"')] });
    const run = await runStream({ server });
    const inputs = partsOfType(run.parts, 'tool-input-delta').map((part) => part.delta).join('');
    expect(inputs).toBe('{"file_path": "a.ts"');
    const call = partsOfType(run.parts, 'tool-call')[0];
    expect(call).toMatchObject({ toolName: 'read', invalid: true });
  });

  it('streams text followed by a tool call in the same turn', async () => {
    server.load({ turns: [{ text: 'Let me look.', toolCalls: [{ name: 'ls', arguments: { dir: '.' } }] }] });
    const run = await runStream({ server });
    expect(textDeltas(run.parts).join('')).toBe('Let me look.');
    expect(partsOfType(run.parts, 'tool-call')[0]).toMatchObject({ toolName: 'ls', input: { dir: '.' } });
  });

  it('sends reasoning as reasoning_content deltas before the text', async () => {
    server.load({ turns: [reply.text('Done.', { reasoning: 'First I think, then I answer.' })] });
    const run = await runStream({ server, rawChunks: true });
    // @ai-sdk/openai ignores reasoning_content (DeepSeek/vLLM style), so read it from the raw chunks.
    const rawDeltas = partsOfType(run.parts, 'raw').map((part) => {
      const chunk = part.rawValue as { choices: { delta?: { reasoning_content?: string; content?: string | null } }[] };
      return chunk.choices[0]?.delta ?? {};
    });
    const reasoningPieces = rawDeltas.flatMap((delta) => (delta.reasoning_content !== undefined ? [delta.reasoning_content] : []));
    expect(reasoningPieces.length).toBeGreaterThan(3);
    expect(reasoningPieces.join('')).toBe('First I think, then I answer.');
    const firstReasoning = rawDeltas.findIndex((delta) => delta.reasoning_content !== undefined);
    const firstText = rawDeltas.findIndex((delta) => typeof delta.content === 'string' && delta.content !== '');
    expect(firstReasoning).toBeLessThan(firstText);
    expect(textDeltas(run.parts).join('')).toBe('Done.');
  });

  it('reports the scripted usage numbers', async () => {
    server.load({ turns: [reply.text('hi', { usage: { prompt_tokens: 123, completion_tokens: 45 } })] });
    const run = await runStream({ server });
    const finish = partsOfType(run.parts, 'finish')[0];
    expect(finish.totalUsage).toMatchObject({ inputTokens: 123, outputTokens: 45, totalTokens: 168 });
  });

  it('estimates usage from the request and reply when the scenario gives none', async () => {
    const prompt = 'x'.repeat(400);
    server.load({ turns: [reply.text('y'.repeat(80))] });
    const run = await runStream({ server, prompt });
    const usage = partsOfType(run.parts, 'finish')[0].totalUsage;
    expect(usage.inputTokens).toBe(100);
    expect(usage.outputTokens).toBe(20);
  });

  it('generates deterministic filler for `tokens` and reports exactly that many tokens', async () => {
    server.load({ turns: [{ tokens: 50, chunkSize: 5 }, { tokens: 50, chunkSize: 5 }] });
    const first = await runStream({ server });
    const second = await runStream({ server });
    const deltas = textDeltas(first.parts).filter((delta) => delta !== '');
    expect(deltas).toHaveLength(10);
    expect(deltas.join('').split(' ')).toHaveLength(50);
    expect(textDeltas(second.parts).join('')).toBe(deltas.join(''));
    expect(partsOfType(first.parts, 'finish')[0].totalUsage.outputTokens).toBe(50);
  });

  it('delivers a long unpaced stream whole', async () => {
    server.load({ turns: [{ tokens: 20_000 }] });
    const run = await runStream({ server });
    const text = textDeltas(run.parts).join('');
    expect(text.split(' ')).toHaveLength(20_000);
    expect(partsOfType(run.parts, 'finish')[0].totalUsage.outputTokens).toBe(20_000);
  });

  it('paces lorem filler by tokensPerSecond and still delivers every word', async () => {
    server.load({ turns: [{ text: { lorem: 30 }, chunkSize: 3, tokensPerSecond: 3000 }] });
    const run = await runStream({ server });
    const deltas = textDeltas(run.parts).filter((delta) => delta !== '');
    expect(deltas).toHaveLength(10);
    expect(deltas.join('').split(' ')).toHaveLength(30);
  });

  it('reports the scripted finish reason', async () => {
    server.load({ turns: [reply.text('cut off', { finishReason: 'length' })] });
    const run = await runStream({ server });
    expect(partsOfType(run.parts, 'finish')[0].finishReason).toBe('length');
  });

  it('answers non-streaming requests with a whole completion', async () => {
    server.load({
      turns: [{ text: 'All at once.', toolCalls: [{ name: 'read', arguments: { file_path: 'b.ts' } }], usage: { prompt_tokens: 7, completion_tokens: 3 } }],
    });
    const result = await generateText({ model: scriptedModel(server), prompt: 'hi', tools: testTools, maxRetries: 0 });
    expect(result.text).toBe('All at once.');
    expect(result.toolCalls).toMatchObject([{ toolName: 'read', input: { file_path: 'b.ts' } }]);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(server.requests[0].body.stream).not.toBe(true);
  });
});
