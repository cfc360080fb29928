import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectEvent } from '../../../src/core/projectTypes';
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
beforeEach(() => {
  bench = projectBench(server);
});
afterEach(() => bench.cleanup());

const yolo = { model: 'local/scripted', approvalMode: 'yolo' as const };
const SQL_REMINDER = 'Team SQL conventions: snake_case names, one migration per change.';

function sqlRules() {
  bench.write(
    '.keel/rules.json',
    JSON.stringify({
      rules: [
        {
          id: 'sql-conventions',
          on: 'tool_result',
          if: 'event.tool == "edit" && event.path.endsWith(".sql")',
          actions: [
            { type: 'reminder', text: SQL_REMINDER },
            { type: 'notify', text: 'Reminded the agent of the SQL conventions ({{event.path}}).' },
          ],
        },
      ],
    }),
  );
}

async function sqlProject(turnsAfterEdit = [reply.text('done')]) {
  const made = await bench.project(
    [
      reply.tool('read', { file_path: 'db/schema.sql' }),
      reply.tool('edit', { file_path: 'db/schema.sql', old_string: 'CREATE TABLE Users', new_string: 'CREATE TABLE users' }),
      ...turnsAfterEdit,
    ],
    { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] },
  );
  return made;
}

/** All text the model got in one request, last message last. */
function requestMessages(index: number): Array<{ role: string; text: string }> {
  const body = server.requests[index]!.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages.map((m) => ({
    role: m.role,
    text:
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((part: { text?: string }) => part.text ?? JSON.stringify(part)).join('\n')
          : JSON.stringify(m.content),
  }));
}

const fired = (events: ProjectEvent[]) =>
  events.flatMap((e) => (e.type === 'rules_fired' ? [{ event: e.event, ids: e.fired.map((f) => f.id), toolCallId: e.toolCallId }] : []));

describe('event rules in a conversation', () => {
  it('a workspace rule about SQL fires after an edit of a .sql file, and the next model request carries the reminder', async () => {
    bench.write('db/schema.sql', 'CREATE TABLE Users (id int);\n');
    sqlRules();
    const { ctx, project } = await sqlProject();
    const rec = recorder();
    const result = await project.send('rename the table', rec);
    expect(result.status).toBe('completed');
    expect(readFileSync(join(bench.ws, 'db/schema.sql'), 'utf8')).toBe('CREATE TABLE users (id int);\n');

    // Request 2 follows the read: nothing yet. Request 3 follows the edit: the reminder is its last message.
    expect(requestMessages(1).some((m) => m.text.includes(SQL_REMINDER))).toBe(false);
    const third = requestMessages(2);
    expect(third.at(-1)?.role).toBe('user');
    expect(third.at(-1)?.text).toContain(SQL_REMINDER);
    expect(third.at(-1)?.text).toContain('<system-reminder>');
    expect(third.at(-2)?.role).toBe('tool');

    const sqlFired = rec.events.find((e) => e.type === 'rules_fired' && e.fired.some((f) => f.id === 'sql-conventions'));
    expect(sqlFired).toMatchObject({
      type: 'rules_fired',
      event: 'tool_result',
      fired: [
        {
          id: 'sql-conventions',
          source: 'workspace',
          actions: [
            { type: 'reminder', text: SQL_REMINDER },
            { type: 'notify', text: 'Reminded the agent of the SQL conventions (db/schema.sql).' },
          ],
        },
      ],
    });

    // The session log records it; the reminder is said once, in a message of its own that the
    // history keeps (so later requests start with what this one sent), marked as the rules'.
    const log = readFileSync(project.session.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const records = log.filter((r) => r.type === 'rules');
    expect(records).toEqual([
      expect.objectContaining({ event: 'tool_result', toolCallId: expect.any(String), fired: [expect.objectContaining({ id: 'sql-conventions' })] }),
    ]);
    const saidIn = log.filter((r) => r.type === 'message' && JSON.stringify(r.message).includes(SQL_REMINDER));
    expect(saidIn).toEqual([expect.objectContaining({ meta: { rules: true }, message: expect.objectContaining({ role: 'user' }) })]);
    // Read back from disk, the record is whole and the log has no warnings.
    const reread = ctx.sessions.open(project.session.id, { readOnly: true });
    expect(reread.warnings).toEqual([]);
    expect(reread.rulesFired().map((r) => [r.event, r.fired.map((f) => f.id)])).toEqual([['tool_result', ['sql-conventions']]]);
    reread.close();
  });

  it('fires for the edit only, not the reads, and says the reminder once', async () => {
    bench.write('db/schema.sql', 'CREATE TABLE Users (id int);\n');
    sqlRules();
    const { project } = await sqlProject([reply.tool('read', { file_path: 'db/schema.sql' }), reply.text('done')]);
    const rec = recorder();
    await project.send('rename the table', rec);
    expect(fired(rec.events).filter((f) => f.ids.includes('sql-conventions'))).toHaveLength(1);
    expect(requestMessages(2).at(-1)?.text).toContain(SQL_REMINDER);
    // The request after the next read repeats nothing: it carries the reminder only where it was said.
    const later = requestMessages(3);
    expect(later.filter((m) => m.text.includes(SQL_REMINDER))).toHaveLength(1);
    expect(later.at(-1)?.text).not.toContain(SQL_REMINDER);
  });

  it('reminds to run the tests after an edit when the workspace has a test command (built-in)', async () => {
    bench.write('package.json', JSON.stringify({ scripts: { test: 'vitest run' } }));
    bench.write('db/schema.sql', 'CREATE TABLE Users (id int);\n');
    const { project } = await sqlProject();
    const rec = recorder();
    await project.send('rename the table', rec);
    expect(fired(rec.events)).toContainEqual({ event: 'tool_result', ids: ['builtin.run-tests'], toolCallId: expect.any(String) });
    expect(requestMessages(2).at(-1)?.text).toContain('This workspace has a test command (npm test)');
  });

  it('does not remind about tests once they ran in the task, even when they failed; a declined test command does not count', async () => {
    bench.write('package.json', JSON.stringify({ scripts: { test: 'node -e "process.exit(3)"' } }));
    bench.write('db/schema.sql', 'CREATE TABLE Users (id int);\n');
    const turns = [
      reply.tool('bash', { command: 'npm test' }),
      reply.tool('read', { file_path: 'db/schema.sql' }),
      reply.tool('edit', { file_path: 'db/schema.sql', old_string: 'CREATE TABLE Users', new_string: 'CREATE TABLE users' }),
      reply.text('done'),
    ];
    const manual = { overrides: [{ model: 'local/scripted', approvalMode: 'manual' as const, providers: { local: { baseURL: server.baseURL } } }] };

    let made = await bench.project(turns, manual);
    let rec = recorder([{ approved: true }, { approved: true }]);
    await made.project.send('fix it', rec);
    expect(rec.events.some((e) => e.type === 'tool_result' && e.name === 'bash' && e.output.includes('Exit code: 3'))).toBe(true);
    expect(fired(rec.events)).toEqual([]);

    bench.write('db/schema.sql', 'CREATE TABLE Users (id int);\n');
    made = await bench.project(turns, manual);
    rec = recorder([{ approved: false, reason: 'not now' }, { approved: true }]);
    await made.project.send('fix it', rec);
    expect(fired(rec.events).map((f) => f.ids[0])).toEqual(['builtin.run-tests']);
  });

  it('in plan mode, the first request carries the present-the-plan reminder, and plan_ready is raised at the end', async () => {
    bench.write('.keel/rules.json', JSON.stringify({ rules: [{ id: 'plan-done', on: 'plan_ready', actions: [{ type: 'notify', text: 'Plan ready ({{event.status}})' }] }] }));
    const { project } = await bench.project([reply.text('1. do it')], { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] });
    const rec = recorder();
    await project.plan('how would you do it?', rec);
    expect(requestMessages(0).at(-1)?.text).toMatch(/Plan mode: .*wait for the person to confirm/);
    expect(fired(rec.events).map((f) => `${f.event}:${f.ids.join(',')}`)).toEqual(['prompt_submit:builtin.plan-confirm', 'plan_ready:plan-done']);
    const notify = rec.events.find((e) => e.type === 'rules_fired' && e.event === 'plan_ready');
    expect(notify).toMatchObject({ fired: [{ actions: [{ type: 'notify', text: 'Plan ready (completed)' }] }] });
  });

  it('a broken rule is reported with its file and id; the good rules of the same file still fire', async () => {
    bench.write(
      '.keel/rules.json',
      JSON.stringify({
        rules: [
          { id: 'broken', on: 'prompt_submit', if: 'event.prompt.replace("a")', actions: [{ type: 'reminder', text: 'x' }] },
          { id: 'context', on: ['session_start'], actions: [{ type: 'inject_context', text: 'Deploys happen on Fridays.' }] },
        ],
      }),
    );
    const { project } = await bench.project([reply.text('ok'), reply.text('again')], { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] });
    const rec = recorder();
    await project.send('hello', rec);
    const problems = rec.events.filter((e) => e.type === 'rule_problems');
    expect(problems).toEqual([
      { type: 'rule_problems', problems: [expect.stringMatching(/rules\.json: rule "broken": "if": Unknown method "replace".*This rule is ignored/)] },
    ]);
    expect(requestMessages(0).at(-1)?.text).toContain('<context source="keel rule context">\nDeploys happen on Fridays.\n</context>');
    // A second run: session_start is not raised again, and the same problem is not announced twice.
    const again = recorder();
    await project.send('hello again', again);
    expect(again.events.filter((e) => e.type === 'rule_problems')).toEqual([]);
    expect(requestMessages(1).filter((m) => m.text.includes('Deploys happen'))).toHaveLength(1);
    expect(requestMessages(1).at(-1)?.text).not.toContain('Deploys happen');
  });

  it('a throttle recorded in the session log still holds for a Project reopened on the same session', async () => {
    bench.write('.keel/rules.json', JSON.stringify({ rules: [{ id: 'once', on: 'prompt_submit', throttle: { per: 'session' }, actions: [{ type: 'reminder', text: 'Once only.' }] }] }));
    const { ctx, project } = await bench.project([reply.text('a'), reply.text('b')], { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] });
    const first = recorder();
    await project.send('one', first);
    expect(fired(first.events).map((f) => f.ids[0])).toEqual(['once']);
    const { Project } = await import('../../../src/core/project');
    const reopened = new Project(ctx, project.session);
    const second = recorder();
    await reopened.send('two', second);
    expect(fired(second.events)).toEqual([]);
    expect(requestMessages(1).filter((m) => m.text.includes('Once only.'))).toHaveLength(1);
    expect(requestMessages(1).at(-1)?.text).not.toContain('Once only.');
  });
});

describe('reminders of a finished task', () => {
  it('go with the next prompt\'s first request, once', async () => {
    bench.write('.keel/rules.json', JSON.stringify({ rules: [{ id: 'after', on: 'task_complete', actions: [{ type: 'reminder', text: 'Summarize open questions first.' }] }] }));
    const { project } = await bench.project([reply.text('a'), reply.text('b'), reply.text('c')], { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] });
    await project.send('one', recorder());
    expect(requestMessages(0).some((m) => m.text.includes('Summarize open questions'))).toBe(false);
    await project.send('two', recorder());
    const second = requestMessages(1);
    // One user message: the rules' text first, then what the person wrote (no two user turns in a row).
    expect(second.at(-1)?.text).toMatch(/Summarize open questions first\.[\s\S]*\ntwo$/);
    expect(second.at(-2)?.role).toBe('assistant');
  });
});

// Keeps the helper honest: a rules file written after the Project exists is read on the next run.
describe('rules files are read per run', () => {
  it('picks up a rule added between two runs', async () => {
    const { project } = await bench.project([reply.text('a'), reply.text('b')], { overrides: [{ ...yolo, providers: { local: { baseURL: server.baseURL } } }] });
    await project.send('one', recorder());
    mkdirSync(join(bench.ws, '.keel'), { recursive: true });
    writeFileSync(join(bench.ws, '.keel/rules.json'), JSON.stringify({ rules: [{ id: 'late', on: 'prompt_submit', actions: [{ type: 'reminder', text: 'Added later.' }] }] }));
    const rec = recorder();
    await project.send('two', rec);
    expect(fired(rec.events).map((f) => f.ids[0])).toEqual(['late']);
    expect(requestMessages(1).at(-1)?.text).toContain('Added later.');
  });
});
