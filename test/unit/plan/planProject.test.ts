import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { planFolder } from '../../../src/core/plan/planBook';
import { Project } from '../../../src/core/project';
import type { ApprovalRequest } from '../../../src/core/tools/tool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;
let home: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-plan-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function project(turns: Turn[]) {
  server.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: home },
    overrides: [{ model: 'local/scripted', planModel: 'local/planner', providers: { local: { baseURL: server.baseURL } } }],
  });
  const session = ctx.sessions.create();
  return { ctx, session, project: new Project(ctx, session) };
}

const PLAN = '## Goal\nRename alpha.\n\n## Steps\n1. Edit a.txt\n2. Check a.txt\n\n## Risks\nNone.\n\n## Verification\nRead a.txt.';

const offeredTools = (i: number) => (server.requests[i]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
const lastMessage = (i: number) => JSON.stringify(server.requests[i]!.body.messages.at(-1));

describe('plan mode', () => {
  it('offers only read-only tools, uses the plan model and prompt, and records the answer as a plan with its file', async () => {
    const { project: p, session, ctx } = await project([reply.tool('read', { file_path: 'a.txt' }), reply.text(PLAN)]);
    const result = await p.plan('rename alpha');
    expect(result.status).toBe('completed');
    const tools = offeredTools(0);
    expect(tools).toEqual(expect.arrayContaining(['read', 'ls', 'glob', 'grep']));
    for (const writer of ['write', 'edit', 'bash', 'kill_bash']) expect(tools).not.toContain(writer);
    expect(server.requests[0]!.body.model).toBe('planner');
    expect(JSON.stringify(server.requests[0]!.body.messages[0])).toContain('plan mode');
    expect(result.plan).toMatchObject({ id: 'plan-1', status: 'proposed', text: PLAN, messageId: session.leafId });
    expect(readFileSync(p.plans.filePath('plan-1'), 'utf8')).toBe(PLAN);
    session.close();
    const reopened = ctx.sessions.open(session.id);
    expect(reopened.plans()).toEqual([expect.objectContaining({ id: 'plan-1', status: 'proposed', text: PLAN })]);
    reopened.close();
  });

  it('refuses a write the model calls anyway: the file is untouched and the model is told why', async () => {
    const { project: p } = await project([
      reply.tool('write', { file_path: 'a.txt', content: 'overwritten\n' }),
      reply.tool('bash', { command: 'echo hi > b.txt' }),
      reply.text(PLAN),
    ]);
    const asked: ApprovalRequest[] = [];
    await p.plan('rename alpha', {
      onToolApprove: async (r) => {
        asked.push(r);
        return { approved: true };
      },
    });
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
    expect(asked).toEqual([]);
    expect(lastMessage(1)).toMatch(/Plan mode is read-only: \\"write\\" is not available, so nothing was changed/);
    expect(lastMessage(2)).toMatch(/Plan mode is read-only: \\"bash\\"/);
  });

  it('executes the plan as its file reads after an edit, in act mode, with its steps as the todo list', async () => {
    const { project: p, session, ctx } = await project([
      reply.text(PLAN),
      { ...reply.tool('read', { file_path: 'a.txt' }), match: { lastUserIncludes: 'Execute this plan' } },
      reply.text('done'),
    ]);
    const planned = await p.plan('rename alpha');
    const edited = PLAN.replace('2. Check a.txt', '2. Check a.txt twice\n3. Tell me');
    writeFileSync(p.plans.filePath(planned.plan!.id), edited);
    const seenTodos: string[][] = [];
    p.todos.onChange((items) => seenTodos.push(items.map((i) => `${i.id}:${i.status}:${i.content}`)));
    const result = await p.executePlan('plan-1');
    expect(result.mode).toBe('act');
    expect(lastMessage(1)).toContain('Check a.txt twice');
    expect(offeredTools(1)).toContain('write');
    expect(server.requests[1]!.body.model).toBe('scripted');
    expect(seenTodos[0]).toEqual(['step-1:pending:Edit a.txt', 'step-2:pending:Check a.txt twice', 'step-3:pending:Tell me']);
    expect(p.plans.get('plan-1')).toMatchObject({ status: 'executed', text: edited });
    await expect(p.executePlan('plan-1')).rejects.toThrow(/already executed/);
    session.close();
    const reopened = ctx.sessions.open(session.id);
    expect(reopened.plans()[0]).toMatchObject({ status: 'executed', text: edited });
    reopened.close();
  });

  it('executing never pre-approves: a write in the executed plan still asks', async () => {
    const { project: p } = await project([
      reply.text(PLAN),
      reply.tool('write', { file_path: 'b.txt', content: 'beta\n' }),
      reply.text('declined, stopping'),
    ]);
    await p.plan('rename alpha');
    const asked: string[] = [];
    await p.executePlan('plan-1', {
      onToolApprove: async (r) => {
        asked.push(r.tool);
        return { approved: false, reason: 'not yet' };
      },
    });
    expect(asked).toEqual(['write']);
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
  });

  it('refines in plan mode with the feedback, making a new plan and settling the old one', async () => {
    const { project: p } = await project([
      reply.text(PLAN),
      { ...reply.text(`${PLAN}\n3. Also b`), match: { lastUserIncludes: 'also rename b' } },
    ]);
    await p.plan('rename alpha');
    const refined = await p.refinePlan('plan-1', 'also rename b');
    expect(refined.mode).toBe('plan');
    expect(offeredTools(1)).not.toContain('write');
    expect(lastMessage(1)).toContain('Rename alpha.');
    expect(refined.plan).toMatchObject({ id: 'plan-2', status: 'proposed' });
    expect(p.plans.get('plan-1')?.status).toBe('refined');
    expect(p.plans.list().map((x) => x.id)).toEqual(['plan-1', 'plan-2']);
  });

  it('keeps no plan for a run that failed, and rewrites a deleted plan file from the log', async () => {
    const { project: p } = await project([reply.text(PLAN), reply.status(400)]);
    await p.plan('rename alpha');
    rmSync(planFolder(p.session.path), { recursive: true });
    expect(p.plans.sync('plan-1').text).toBe(PLAN);
    expect(readFileSync(p.plans.filePath('plan-1'), 'utf8')).toBe(PLAN);
    const failed = await p.plan('again', { maxTurns: 1 });
    expect(failed.plan).toBeUndefined();
    expect(p.plans.list()).toHaveLength(1);
  });
});
