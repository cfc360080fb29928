// The scripted server's failure modes, as the real AI SDK surfaces them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APICallError, streamText } from 'ai';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { partsOfType, runStream, scriptedModel, textDeltas } from './sdkHarness.ts';
import type { StreamRun } from './sdkHarness.ts';

let server: ScriptedServer;

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  await server.close();
});

/** The request-level error: the SDK emits it as an `error` part (and to onError). */
function apiError(run: StreamRun): APICallError {
  const part = partsOfType(run.parts, 'error')[0];
  expect(part, `expected an error part, got ${run.parts.map((p) => p.type).join(', ')}`).toBeDefined();
  expect(APICallError.isInstance(part.error)).toBe(true);
  return part.error as APICallError;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('scripted server failures through the AI SDK', () => {
  it('surfaces a 429 as an APICallError with its status and retry-after header', async () => {
    server.load({ turns: [reply.rateLimited(1)] });
    const run = await runStream({ server });
    const error = apiError(run);
    expect(error.statusCode).toBe(429);
    expect(error.responseHeaders?.['retry-after']).toBe('1');
    expect(error.isRetryable).toBe(true);
    expect(run.reported).toContain(error);
  });

  it('surfaces a context-length 400 with OpenAI’s error body', async () => {
    server.load({ turns: [reply.contextLengthExceeded(8192)] });
    const error = apiError(await runStream({ server }));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("This model's maximum context length is 8192 tokens");
    expect(JSON.parse(error.responseBody ?? '{}')).toMatchObject({ error: { code: 'context_length_exceeded' } });
  });

  it('serves a scripted status body and headers verbatim', async () => {
    server.load({ turns: [reply.status(503, { error: { message: 'overloaded', type: 'server_error', code: null } }, { 'x-test': 'yes' })] });
    const error = apiError(await runStream({ server }));
    expect(error.statusCode).toBe(503);
    expect(error.message).toBe('overloaded');
    expect(error.responseHeaders?.['x-test']).toBe('yes');
  });

  it('surfaces a connection dropped mid-stream as an error after the chunks already sent', async () => {
    server.load({ turns: [{ text: 'abcdefghijklmnop', drop: 'midStream', afterChunks: 3 }] });
    const run = await runStream({ server });
    // Role chunk + two 4-char pieces arrived before the socket was destroyed.
    expect(textDeltas(run.parts).join('')).toBe('abcdefgh');
    expect(partsOfType(run.parts, 'finish')).toEqual([]);
    // The SDK throws this one from the stream rather than emitting an error part.
    expect(APICallError.isInstance(run.thrown)).toBe(true);
    expect((run.thrown as APICallError).message).toBe('Failed to process successful response');
  });

  it('surfaces a connection dropped before headers as an APICallError', async () => {
    server.load({ turns: [reply.dropBeforeHeaders()] });
    const run = await runStream({ server });
    const error = apiError(run);
    expect(error.statusCode).toBeUndefined();
    expect(textDeltas(run.parts)).toEqual([]);
  });

  it('surfaces a mid-stream error event after the text already streamed', async () => {
    server.load({ turns: [{ text: 'partial answer', streamError: { message: 'The server had an error', code: 'server_error' }, afterChunks: 2 }] });
    const run = await runStream({ server });
    expect(textDeltas(run.parts).join('')).toBe('part');
    const errorPart = partsOfType(run.parts, 'error')[0];
    expect(errorPart).toBeDefined();
    expect((errorPart.error as Error).name).toBe('AI_StreamProviderError');
    expect((errorPart.error as Error).message).toContain('The server had an error');
  });

  it('holds a hanging request open until the client aborts it', async () => {
    server.load({ turns: [reply.hang(), reply.text('after the hang')] });
    const controller = new AbortController();
    const pending = runStream({ server, abortSignal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort();
    const run = await pending;
    expect(textDeltas(run.parts)).toEqual([]);
    expect(partsOfType(run.parts, 'abort')).toHaveLength(1);
    expect(run.thrown).toBeUndefined();
    // The server is still healthy and moves on to the next turn.
    const next = await runStream({ server });
    expect(textDeltas(next.parts).join('')).toBe('after the hang');
  });

  it('can drop right after the headers, before any event', async () => {
    server.load({ turns: [{ text: 'never seen', drop: 'midStream', afterChunks: 0 }] });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('stops a paced stream when the client aborts mid-way and serves the next turn', async () => {
    server.load({ turns: [{ text: 'x'.repeat(500), chunkSize: 1, delayMs: 5 }, reply.text('next')] });
    const controller = new AbortController();
    const result = streamText({ model: scriptedModel(server), prompt: 'go', maxRetries: 0, abortSignal: controller.signal });
    const seen: string[] = [];
    for await (const part of result.stream) {
      seen.push(part.type);
      if (part.type === 'text-delta' && part.text !== '') controller.abort();
    }
    expect(seen).toContain('abort');
    expect(seen).not.toContain('finish');
    const next = await runStream({ server });
    expect(textDeltas(next.parts).join('')).toBe('next');
  });

  it('closes while a request hangs, failing that request', async () => {
    server.load({ turns: [reply.hang()] });
    const pending = runStream({ server });
    await until(() => server.requests.length === 1);
    await server.close();
    const run = await pending;
    expect(APICallError.isInstance(partsOfType(run.parts, 'error')[0]?.error)).toBe(true);
    // afterEach closes again; a fresh server keeps that harmless.
    server = await startScriptedServer();
  });

  it('answers 500 naming the turn and the mismatch when a strict match fails', async () => {
    server.load({ turns: [{ label: 'plan step', match: { lastUserIncludes: 'deploy', toolsInclude: ['read', 'write'] }, text: 'ok' }] });
    const error = apiError(await runStream({ server, prompt: 'hello there' }));
    expect(error.statusCode).toBe(500);
    expect(error.message).toContain('request #1 does not match turns[0] ("plan step")');
    expect(error.message).toContain('expected the last user message to include "deploy", got "hello there"');
    expect(error.message).toContain('expected tools [write] to be offered, got [read, ls]');
    // The mismatched turn was not consumed.
    expect(server.pendingTurns()).toBe(1);
  });

  it('answers 500 with the last user message when no turn is left', async () => {
    server.load({ turns: [] });
    const error = apiError(await runStream({ server, prompt: 'one more thing' }));
    expect(error.statusCode).toBe(500);
    expect(error.message).toBe('scripted server: no turn left for request #1 (last user message: "one more thing")');
  });

  it('rejects a wrong API key with 401 without echoing either key', async () => {
    server.load({ apiKey: 'sk-right', turns: [reply.text('welcome')] });
    const error = apiError(await runStream({ server, apiKey: 'sk-wrong' }));
    expect(error.statusCode).toBe(401);
    expect(JSON.parse(error.responseBody ?? '{}')).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
    expect(error.responseBody).not.toContain('sk-');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-wrong');

    const ok = await runStream({ server, apiKey: 'sk-right' });
    expect(textDeltas(ok.parts).join('')).toBe('welcome');
  });
});
