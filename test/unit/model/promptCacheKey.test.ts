// OpenAI routes requests that share a `prompt_cache_key` to the same prompt cache. Keel sends
// one per conversation (stable across its requests, different for another conversation) on
// both OpenAI wires, where the endpoint takes it; a compatible server that was not said to
// take it gets no unknown field. Over real HTTP with the scripted server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

const keyOf = (i: number) => (server.requests[i].body as Record<string, unknown>).prompt_cache_key;

describe.each(['chat', 'responses'] as const)('prompt_cache_key (%s wire)', (api) => {
  const provider = (promptCacheKey?: boolean) => ({
    baseURL: server.baseURL,
    ...(api === 'responses' ? { api: 'responses' as const } : {}),
    ...(promptCacheKey === undefined ? {} : { promptCacheKey }),
  });

  it('is sent, the same, with every request of a conversation, and another conversation gets another', async () => {
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const { ctx, project } = await bench.project(
      [reply.tool('read', { file_path: 'a.txt' }), reply.text('It says alpha.'), reply.text('You are welcome.'), reply.text('A new conversation.')],
      { overrides: [{ model: 'local/scripted', providers: { local: provider(true) } }] },
    );
    for (const text of ['read a.txt', 'thanks']) expect((await project.send(text, recorder())).status).toBe('completed');
    expect(server.requests).toHaveLength(3);
    const key = keyOf(0);
    expect(typeof key).toBe('string');
    expect((key as string).length).toBeGreaterThanOrEqual(16);
    // The key says nothing about the session: it is not its id.
    expect(key).not.toContain(project.session.id);
    expect([keyOf(1), keyOf(2)]).toEqual([key, key]);

    const { Project } = await import('../../../src/core/project');
    const other = new Project(ctx, ctx.sessions.create());
    try {
      expect((await other.send('hello', recorder())).status).toBe('completed');
    } finally {
      other.session.close();
    }
    expect(keyOf(3)).toEqual(expect.any(String));
    expect(keyOf(3)).not.toBe(key);
  });

  it('is not sent to a compatible endpoint unless the person says it takes one', async () => {
    for (const flag of [undefined, false]) {
      bench = projectBench(server);
      const { project } = await bench.project([reply.text('Hi.')], { overrides: [{ model: 'local/scripted', providers: { local: provider(flag) } }] });
      const before = server.requests.length;
      expect((await project.send('hello', recorder())).status).toBe('completed');
      expect(server.requests[before].body).not.toHaveProperty('prompt_cache_key');
      bench.cleanup();
    }
  });
});
