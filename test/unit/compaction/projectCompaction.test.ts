import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionHistoryOf } from '../../../src/core/history/sessionHistoryOf';
import type { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';
import { sessionModelLayer } from './compactionHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

const SUMMARY = '## Goal\nRename the parser (the person asked for it in question 0).\n## Open tasks\nRun the tests.';
const summarizer = { systemIncludes: 'You summarize a conversation' };

/** `exchanges` question/answer pairs, the first with a tool call and its result in between. */
function fill(project: Project, exchanges: number, answerChars = 60): void {
  for (let i = 0; i < exchanges; i++) {
    project.session.appendMessage({ role: 'user', content: `earlier question ${i}` });
    if (i === 0) {
      project.session.appendMessage({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c0', toolName: 'read', input: { path: 'src/parser.ts' } }] });
      project.session.appendMessage({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c0', toolName: 'read', output: { type: 'text', value: 'export function parse() {}' } }] });
    }
    project.session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `earlier answer ${i} ${'z'.repeat(answerChars)}` }] });
  }
}

function sentText(index: number): string {
  return JSON.stringify(server.requests[index]!.body.messages);
}

function compactionEvents(events: ProjectEvent[]) {
  return events.filter((e): e is Extract<ProjectEvent, { type: 'compaction' }> => e.type === 'compaction');
}

describe('/compact (Project.compact)', () => {
  it('summarizes the conversation with the model, records it, and the next request starts from the summary', async () => {
    bench = projectBench(server);
    const { ctx, project } = await bench.project([
      { ...reply.text(SUMMARY), match: summarizer },
      { ...reply.text('Next answer.'), match: { lastUserIncludes: 'the next question' } },
    ]);
    fill(project, 4);
    const before = project.session.entries().length;
    const events: ProjectEvent[] = [];
    const outcome = await project.compact({ onEvent: (e) => events.push(e) });
    expect(outcome).toMatchObject({ summary: SUMMARY, compactedMessages: before });
    expect(compactionEvents(events).map((e) => e.phase)).toEqual(['start', 'done']);
    // The summary request's tokens count with the session's usage.
    expect(project.session.usageTotals().inputTokens).toBeGreaterThan(0);

    // The summarization request carried the whole conversation, tool call and result included.
    const asked = server.requests[0]!.body;
    expect(JSON.stringify(asked.messages)).toContain('earlier question 0');
    expect(JSON.stringify(asked.messages)).toContain('export function parse()');
    expect(JSON.stringify(asked.messages)).toContain('## Open tasks');

    const result = await project.send('the next question', recorder());
    expect(result.status).toBe('completed');
    const sent = sentText(1);
    expect(sent).toContain('Rename the parser');
    expect(sent).not.toContain('earlier question 0');
    expect(sent).not.toContain('earlier answer 3');

    // The log holds the compaction record; a resumed session continues from the summary.
    const id = project.session.id;
    const log = readFileSync(project.session.path, 'utf8');
    expect(log).toMatch(/"type":"compaction"/);
    const history = project.session.history();
    project.session.close();
    const resumed = ctx.sessions.open(id);
    expect(resumed.history()).toEqual(history);
    expect(resumed.history()[0]).toMatchObject({ role: 'user' });
    expect(JSON.stringify(resumed.history()[0])).toContain('Rename the parser');
    const divider = resumed.entries().find((e) => e.kind === 'compaction');
    expect(divider).toMatchObject({ summary: SUMMARY, messages: before });
    // history_search still finds what was compacted away.
    const searchable = sessionHistoryOf(resumed).messages().map((m) => m.text).join('\n');
    expect(searchable).toContain('earlier question 0');
    expect(searchable).toContain('export function parse()');
    resumed.close();
  });

  it('tells why when the summary cannot be made, and changes nothing in the log', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([{ ...reply.status(500, { error: { message: 'summarizer is down' } }), repeat: 3 }]);
    fill(project, 3);
    const logBefore = readFileSync(project.session.path, 'utf8');
    const historyBefore = project.session.history();
    const events: ProjectEvent[] = [];
    expect(await project.compact({ onEvent: (e) => events.push(e) })).toBe('failed');
    const failed = compactionEvents(events).find((e) => e.phase === 'failed');
    expect(failed && 'error' in failed ? failed.error : '').toMatch(/could not compact.*summarizer is down.*Nothing was changed/s);
    expect(readFileSync(project.session.path, 'utf8')).toBe(logBefore);
    expect(project.session.history()).toEqual(historyBefore);
  });

  it('says there is nothing to compact in an empty conversation', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([]);
    expect(await project.compact()).toBe('nothing');
    expect(server.requests).toHaveLength(0);
  });
});

describe('automatic compaction', () => {
  it('summarizes the older part before a request that would pass 80% of the window, keeping recent messages', async () => {
    bench = projectBench(server);
    const { project } = await bench.project(
      [
        { ...reply.text(SUMMARY), match: summarizer },
        { ...reply.text('Answer with room to spare.'), match: { lastUserIncludes: 'newest question' } },
      ],
      { overrides: [sessionModelLayer(server, 30_000)] },
    );
    fill(project, 40, 2_400);
    const r = recorder();
    const result = await project.send('the newest question', r);
    expect(result.status).toBe('completed');
    expect(compactionEvents(r.events).map((e) => [e.phase, e.reason])).toEqual([
      ['start', 'auto'],
      ['done', 'auto'],
    ]);
    const sent = sentText(1);
    expect(sent).toContain('Rename the parser');
    expect(sent).not.toContain('earlier question 0"');
    // Recent messages are still sent as they were, and the new question with them.
    expect(sent).toContain('earlier answer 39');
    expect(sent).toContain('the newest question');
    expect(sent.length).toBeLessThan(sentText(0).length);
    // Every tool call sent still has its result.
    const messages = server.requests[1]!.body.messages as Array<{ role: string; tool_calls?: { id: string }[]; tool_call_id?: string }>;
    const calls = messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const results = messages.flatMap((m) => (m.role === 'tool' && m.tool_call_id ? [m.tool_call_id] : []));
    expect(results.sort()).toEqual(calls.sort());
  });

  it('does not compact with autoCompact off', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([{ ...reply.text('Plain answer.'), match: { lastUserIncludes: 'question' } }], {
      overrides: [{ ...sessionModelLayer(server, 30_000), autoCompact: false }],
    });
    fill(project, 40, 2_400);
    const r = recorder();
    expect((await project.send('a question', r)).status).toBe('completed');
    expect(compactionEvents(r.events)).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('prefers compaction over leaving messages out when the model says the request is too long', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([
      reply.contextLengthExceeded(),
      { ...reply.text(SUMMARY), match: summarizer },
      { ...reply.text('Recovered through a summary.'), match: { lastUserIncludes: 'newest question' } },
    ]);
    fill(project, 30, 1_000);
    const r = recorder();
    const result = await project.send('the newest question', r);
    expect(result).toMatchObject({ status: 'completed', text: 'Recovered through a summary.' });
    expect(r.events.some((e) => e.type === 'context_trimmed')).toBe(false);
    expect(compactionEvents(r.events).map((e) => [e.phase, e.reason])).toEqual([
      ['start', 'overflow'],
      ['done', 'overflow'],
    ]);
    expect(sentText(2)).toContain('Rename the parser');
    expect(sentText(2)).not.toContain('earlier question 0"');
  });

  it('falls back to leaving messages out when the summary fails, and says so', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([
      reply.contextLengthExceeded(),
      { ...reply.status(500, { error: { message: 'no summary today' } }), repeat: 3 },
      { ...reply.text('Recovered by trimming.'), match: { lastUserIncludes: 'newest question' } },
    ]);
    fill(project, 30, 1_000);
    const r = recorder();
    const result = await project.send('the newest question', r);
    expect(result).toMatchObject({ status: 'completed', text: 'Recovered by trimming.' });
    expect(compactionEvents(r.events).at(-1)).toMatchObject({ phase: 'failed', reason: 'overflow' });
    expect(r.events.some((e) => e.type === 'context_trimmed')).toBe(true);
    expect(project.session.entries().some((e) => e.kind === 'compaction')).toBe(false);
  });
});
