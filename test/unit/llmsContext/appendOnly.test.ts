// Provider prompt caches (OpenAI, Anthropic, DeepSeek, Gemini) reuse only an unchanged
// prefix. Across the person's messages, each request Keel sends must start with the whole
// previous request, byte for byte: the system prompt and tools unchanged, what changed in
// the workspace riding with the new message. Over real HTTP, through both OpenAI wires.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from './projectHarness';
import type { ProjectBench } from './projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

/** The request's conversation items, each as the exact JSON sent. */
function items(index: number, api: 'chat' | 'responses'): string[] {
  const body = server.requests[index].body as Record<string, unknown>;
  return ((api === 'chat' ? body.messages : body.input) as unknown[]).map((item) => JSON.stringify(item));
}

/** How much of request `a` request `b` starts with, counted in characters of the items' JSON (1 = all of it). */
function prefixReuse(a: string[], b: string[]): number {
  const total = a.join('').length;
  let same = 0;
  for (let i = 0; i < a.length; i++) {
    if (b[i] !== a[i]) break;
    same += a[i].length;
  }
  return same / total;
}

describe.each(['chat', 'responses'] as const)('append-only requests (%s wire)', (api) => {
  it('across five messages with tool calls, each request starts with the whole previous one', async () => {
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const provider = { baseURL: server.baseURL, ...(api === 'responses' ? { api: 'responses' as const } : {}) };
    const { project } = await bench.project(
      [
        reply.tool('read', { file_path: 'a.txt' }),
        reply.text('It says alpha.'),
        reply.tool('write', { file_path: 'b.txt', content: 'beta\n' }),
        reply.text('Wrote b.txt.'),
        reply.tool('ls', { path: '.' }),
        reply.text('Two files.'),
        reply.tool('grep', { pattern: 'alpha' }),
        reply.text('Found it in a.txt.'),
        reply.text('Done.'),
      ],
      { overrides: [{ model: 'local/scripted', providers: { local: provider } }] },
    );
    const messages = ['read a.txt', 'write b.txt', 'list the files', 'find alpha', 'thanks'];
    /** Index of the first request of each message. */
    const firsts: number[] = [];
    for (const [i, text] of messages.entries()) {
      firsts.push(server.requests.length);
      // The workspace changes between messages behind Keel's back, as it does while a person works.
      if (i === 3) bench.write('notes/later.md', 'written by the person\n');
      const result = await project.send(text, recorder([{ approved: true }]));
      expect(result.status).toBe('completed');
    }
    expect(server.requests).toHaveLength(9);
    for (let r = 1; r < server.requests.length; r++) {
      const [before, after] = [server.requests[r - 1].body as Record<string, unknown>, server.requests[r].body as Record<string, unknown>];
      expect(prefixReuse(items(r - 1, api), items(r, api)), `request ${r + 1} starts with request ${r}`).toBe(1);
      expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    }
    // The person's edit shows up with the message after it, as what changed, not as the whole context again.
    const fourth = items(firsts[3], api).at(-1) ?? '';
    expect(fourth).toContain('What changed in the workspace since Keel last showed it');
    expect(fourth).toContain('later.md');
    expect(fourth).not.toContain('<environment>');
    // A message after which nothing changed carries no context at all.
    expect(items(firsts[4], api).at(-1)).not.toContain('What changed in the workspace');
  });
});
