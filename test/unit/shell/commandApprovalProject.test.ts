import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../../src/core/config/configSchema';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;
let home: string;
const projects: Project[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-cmd-project-')));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  mkdirSync(ws);
  mkdirSync(home);
});
afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

async function project(turns: Turn[], opts: { allow?: string[]; deny?: string[]; mode?: ApprovalMode } = {}) {
  server.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: home },
    overrides: [
      {
        model: 'local/scripted',
        providers: { local: { baseURL: server.baseURL } },
        approvalMode: opts.mode ?? 'manual',
        commands: { allow: opts.allow ?? [], deny: opts.deny ?? [] },
      },
    ],
  });
  const session = ctx.sessions.create();
  const p = new Project(ctx, session);
  projects.push(p);
  return { ctx, session, project: p };
}

function recorder(answers: Array<Partial<ApprovalAnswer>> = []) {
  const asked: ApprovalRequest[] = [];
  const events: ProjectEvent[] = [];
  return {
    asked,
    events,
    onEvent: (e: ProjectEvent) => events.push(e),
    onToolApprove: async (r: ApprovalRequest): Promise<ApprovalAnswer> => {
      asked.push(r);
      return { approved: false, ...answers.shift() };
    },
  };
}

function approvals(events: ProjectEvent[]) {
  return events.flatMap((e) => (e.type === 'approval' ? [{ approved: e.approved, automatic: e.automatic, rule: e.rule }] : []));
}

const toolResults = () =>
  server.requests
    .flatMap((r) => r.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.stringify(m.content));

describe('command rules through Project', () => {
  it('runs an allowed command without asking in manual mode', async () => {
    const { project: p } = await project([reply.tool('bash', { command: 'echo allowed-ran' }), reply.text('ok')], { allow: ['echo'] });
    const r = recorder();
    await p.send('go', r);
    expect(r.asked).toEqual([]);
    expect(approvals(r.events)).toEqual([{ approved: true, automatic: true, rule: 'tool says no approval needed' }]);
    expect(toolResults().join('\n')).toContain('allowed-ran');
  });

  it('asks before an allowed command writes a file in manual mode, as a write would', async () => {
    const { project: p } = await project([reply.tool('bash', { command: 'echo allowed-ran > out.txt' }), reply.text('ok')], { allow: ['echo'] });
    const r = recorder();
    await p.send('go', r);
    expect(r.asked.map((a) => a.rule)).toEqual(['the command writes files']);
    expect(r.asked[0].paths).toContain('out.txt');
  });

  it('asks when a command is smuggled behind an allowed one, and runs nothing when declined', async () => {
    const { project: p } = await project(
      [reply.tool('bash', { command: 'echo hi && touch smuggled' }), reply.tool('bash', { command: 'echo $(touch smuggled2)' }), reply.text('ok')],
      { allow: ['echo'] },
    );
    const r = recorder([{ approved: false }, { approved: false }]);
    await p.send('go', r);
    expect(r.asked.map((a) => a.summary)).toEqual(['echo hi && touch smuggled', 'echo $(touch smuggled2)']);
    expect(r.asked.map((a) => a.rule)).toEqual(['needs approval', 'needs approval']);
    expect(existsSync(join(ws, 'smuggled'))).toBe(false);
    expect(existsSync(join(ws, 'smuggled2'))).toBe(false);
  });

  it('lets deny beat allow, session allowances and autoEdit; only yolo skips it', async () => {
    const turns = [reply.tool('bash', { command: 'rm -f a.txt' }), reply.text('ok')];
    writeFileSync(join(ws, 'a.txt'), 'a');
    const { project: p, session } = await project(turns, { allow: ['rm'], deny: ['rm'], mode: 'autoEdit' });
    session.appendConfig('allowTool', 'bash');
    const r = recorder([{ approved: false }]);
    await p.send('clean', r);
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0].rule).toBe('matches the deny rule "rm"');
    expect(r.asked[0].allowPrefixes).toBeUndefined();
    expect(existsSync(join(ws, 'a.txt'))).toBe(true);

    const yolo = await project(turns, { allow: ['rm'], deny: ['rm'], mode: 'yolo' });
    const ry = recorder();
    await yolo.project.send('clean', ry);
    expect(ry.asked).toEqual([]);
    expect(existsSync(join(ws, 'a.txt'))).toBe(false);
  });

  it('asks before an allowed command writes outside the workspace', async () => {
    const { project: p } = await project([reply.tool('bash', { command: 'echo x > ../outside.txt' }), reply.text('ok')], { allow: ['echo'] });
    const r = recorder([{ approved: false }]);
    await p.send('go', r);
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0].rule).toMatch(/^writes outside the workspace: \.\.\/outside\.txt/);
    expect(existsSync(join(dir, 'outside.txt'))).toBe(false);
  });

  it('treats a redirection into a protected path as touching it, even in yolo', async () => {
    const { project: p } = await project([reply.tool('bash', { command: 'mkdir -p .vscode && echo {} > .vscode/settings.json' }), reply.text('ok')], {
      allow: ['echo', 'mkdir'],
      mode: 'yolo',
    });
    const r = recorder([{ approved: false }]);
    await p.send('go', r);
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0]).toMatchObject({ protected: true, rule: 'protected path', paths: ['.', '.vscode/settings.json'] });
  });

  it('"always allow" adds the command prefix to the session, never the whole tool', async () => {
    const { project: p, session, ctx } = await project([
      reply.tool('bash', { command: 'npm_like() { :; }; true' }),
      reply.tool('bash', { command: 'echo one' }),
      reply.tool('bash', { command: 'echo one again | cat' }),
      reply.tool('bash', { command: 'echo two' }),
      reply.tool('bash', { command: 'echo one more' }),
      reply.text('done'),
    ]);
    const session3 = { approved: true, scope: 'session' } as const;
    const r = recorder([session3, session3, session3, { approved: false }]);
    await p.send('go', r);
    // An unparseable command offers no prefix, and "always allow" then approves it once only.
    expect(r.asked[0].allowPrefixes).toBeUndefined();
    expect(r.asked[1].allowPrefixes).toEqual(['echo one']);
    // `echo one again` is covered now; only `cat` is new.
    expect(r.asked[2].allowPrefixes).toEqual(['cat']);
    expect(r.asked.map((a) => a.summary)).toEqual(['npm_like() { :; }; true', 'echo one', 'echo one again | cat', 'echo two']);
    expect(r.asked[3].allowPrefixes).toEqual(['echo two']);
    expect(r.asked).toHaveLength(4);
    expect(approvals(r.events).at(-1)).toEqual({ approved: true, automatic: true, rule: 'tool says no approval needed' });
    session.close();
    const reopened = ctx.sessions.open(session.id);
    expect(reopened.config().allowedCommands).toEqual(new Set(['echo one', 'cat']));
    expect(reopened.config().allowedTools.has('bash')).toBe(false);
    reopened.close();
  });

  it('keeps background commands running after the turn and stops them on dispose', async () => {
    const { project: p } = await project(
      [
        reply.tool('bash', { command: 'echo $$ > job.pid; echo up; sleep 100', run_in_background: true }),
        reply.text('started'),
        reply.tool('bash_output', { id: 'bash_1' }),
        reply.text('still there'),
      ],
      { allow: ['echo'] },
    );
    // `sleep` is not allowed: the start is approved by the person.
    await p.send('start it', recorder([{ approved: true }]));
    const pid = Number(readFileSync(join(ws, 'job.pid'), 'utf8'));
    expect(toolResults().at(-1)).toContain('Started background job bash_1.');
    await p.send('how is it?', recorder());
    expect(toolResults().at(-1)).toContain('Job bash_1 is running.');
    expect(() => process.kill(pid, 0)).not.toThrow();
    // A host that rebuilds its Project for the session (settings changed) hands the jobs over.
    const rebuilt = new Project(p.ctx, p.session, { jobs: p.jobs });
    server.load({ turns: [reply.tool('kill_bash', { id: 'bash_1' }), reply.text('stopped')] });
    await rebuilt.send('stop it', recorder());
    expect(toolResults().at(-1)).toContain('Stopped job bash_1.');
    expect(p.jobs.get('bash_1')?.isRunning).toBe(false);
    await p.dispose();
  });
});
