import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

// A provider set to OpenAI's Responses API, against the scripted server's /v1/responses: the
// whole agent loop (text, reasoning, tool calls and their results, usage, errors) on that wire.
let server: ScriptedServer;
let dir: string;
let ws: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-responses-'));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'notes.txt'), 'the answer is 42\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function project(turns: Turn[]) {
  server.load({ turns, apiKey: 'sk-responses' });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: join(dir, 'home') },
    overrides: [{ model: 'work/scripted-model', providers: { work: { baseURL: server.baseURL, api: 'responses' } } }],
    apiKeys: { work: { key: 'sk-responses', origin: new URL(server.baseURL).origin } },
  });
  return new Project(ctx, ctx.sessions.create());
}

describe('the Responses API', () => {
  it('runs a tool call round trip and reports usage', async () => {
    const p = await project([
      reply.tool('read', { file_path: 'notes.txt' }, { reasoning: 'I should look at the notes.' }),
      { ...reply.text('The notes say 42.'), match: { lastToolResultIncludes: 'the answer is 42' } },
    ]);
    const events: ProjectEvent[] = [];
    const result = await p.send('what do the notes say?', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('The notes say 42.');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(events.filter((e) => e.type === 'reasoning_delta').map((e) => (e as { text: string }).text).join('')).toBe('I should look at the notes.');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    // The second request replays the call and carries its output as a function_call_output item.
    const input = server.requests[1].body.input as Array<Record<string, unknown>>;
    expect(input.some((item) => item.type === 'function_call' && item.name === 'read')).toBe(true);
    expect(input.find((item) => item.type === 'function_call_output')?.output).toContain('the answer is 42');
  });

  it('ends with the error the stream reported', async () => {
    const p = await project([{ ...reply.text('partial answer that is cut'), afterChunks: 3, streamError: { message: 'the model is overloaded', code: 'server_error' } }]);
    const result = await p.send('hi');
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain('the model is overloaded');
  });
});
