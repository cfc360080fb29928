import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../../src/core/project';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import { sessionModelLayer } from '../compaction/compactionHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

function fill(project: Project, exchanges: number): void {
  for (let i = 0; i < exchanges; i++) {
    project.session.appendMessage({ role: 'user', content: `earlier question ${i}` });
    project.session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `earlier answer ${i} `.repeat(100) }] });
  }
}

/** These tests are about leaving messages out; with autoCompact on, recovery would summarize first (see compaction/). */
function trimmingOnly() {
  return { overrides: [{ ...sessionModelLayer(server), autoCompact: false }] };
}

describe('a long conversation in Project', () => {
  it('recovers from a context-too-long error; the session log keeps every message', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.contextLengthExceeded(), reply.text('Recovered answer.')], trimmingOnly());
    fill(project, 30);
    const r = recorder();
    const result = await project.send('the newest question', r);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Recovered answer.');
    expect(server.requests[1].body.messages.length).toBeLessThan(server.requests[0].body.messages.length);
    expect(r.events.some((e) => e.type === 'context_trimmed')).toBe(true);
    const logged = project.session.entries();
    expect(logged).toHaveLength(62);
    expect(JSON.stringify(logged[0])).toContain('earlier question 0');
    const offered = (server.requests[1].body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toContain('history_search');
  });

  it('finds what trimming left out with history_search', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([
      reply.contextLengthExceeded(),
      reply.tool('history_search', { query: 'question 0' }),
      { ...reply.text('Found it.'), match: { lastToolResultIncludes: 'earlier question 0' } },
    ], trimmingOnly());
    fill(project, 30);
    const result = await project.send('what did I ask first?', recorder());
    expect(result.status).toBe('completed');
    expect(JSON.stringify(server.requests[1].body.messages)).not.toContain('earlier question 0"');
    expect(server.pendingTurns()).toBe(0);
  });

  it('tells the person plainly when recovery fails, and keeps the message', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([{ ...reply.contextLengthExceeded(), repeat: 4 }], trimmingOnly());
    fill(project, 10);
    const result = await project.send('one more question', recorder());
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'context_too_long', statusCode: 400 });
    expect(result.error?.message).toMatch(/too long for the model's context window.*Nothing was lost/);
    const entries = project.session.entries();
    expect(entries).toHaveLength(21);
    expect(JSON.stringify(entries.at(-1))).toContain('one more question');
  });
});
