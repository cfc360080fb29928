import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { workspaceKey } from '../../../src/core/paths';
import { Project } from '../../../src/core/project';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import type { ApprovalMode } from '../../../src/core/config/configSchema';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { workspaceContext } from '../../integration/suite/support/modelRequests';

// A multi-root workspace: team.code-workspace with folders web (TypeScript, current) and api (Go).
let server: ScriptedServer;
let base: string;
let web: string;
let api: string;
let home: string;
let workspaceFile: string;
const open: Project[] = [];

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'keel-mr-project-')));
  web = join(base, 'web');
  api = join(base, 'api');
  home = join(base, 'home');
  workspaceFile = join(base, 'team.code-workspace');
  put(join(web, 'package.json'), '{"devDependencies":{"typescript":"5"}}');
  put(join(web, 'src', 'app.ts'), 'export const app = 1;\n');
  put(join(api, 'go.mod'), 'module api\n');
  put(join(api, 'src', 'server.go'), 'package main // the api server\n');
  put(workspaceFile, JSON.stringify({ folders: [{ path: 'web' }, { path: 'api' }] }));
  mkdirSync(home);
});
afterEach(() => {
  for (const p of open.splice(0)) p.session.close();
  rmSync(base, { recursive: true, force: true });
});

async function context(turns: Turn[], approvalMode: ApprovalMode = 'manual'): Promise<Context> {
  server.load({ turns });
  return Context.create({
    folders: [{ path: web }, { path: api }],
    workspaceFile,
    host: createFsHost(),
    env: { KEEL_HOME: home },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode }],
  });
}

function track(project: Project): Project {
  open.push(project);
  return project;
}

function approver(answer: Partial<ApprovalAnswer> = { approved: true }) {
  const asked: ApprovalRequest[] = [];
  return { asked, onToolApprove: async (r: ApprovalRequest): Promise<ApprovalAnswer> => (asked.push(r), { approved: false, ...answer }) };
}

/** The workspace context request `index` showed (it rides with the user messages). */
const systemOf = (index: number): string => workspaceContext(server.requests[index]);

describe('a conversation over a multi-root workspace', () => {
  it('reads the second folder by prefix, writes in the current project, and records which project each result concerns', async () => {
    const ctx = await context([
      reply.tool('read', { file_path: 'api/src/server.go' }),
      reply.tool('write', { file_path: 'src/client.ts', content: 'export const client = 2;\n' }),
      reply.text('done'),
    ]);
    const project = track(new Project(ctx, ctx.sessions.create()));
    const ask = approver();
    const result = await project.send('wire the client to the api', ask);
    expect(result.status).toBe('completed');

    expect(JSON.stringify(server.requests[1].body.messages.at(-1))).toContain('the api server');
    expect(readFileSync(join(web, 'src', 'client.ts'), 'utf8')).toBe('export const client = 2;\n');
    expect(ask.asked.map((r) => r.paths)).toEqual([['web/src/client.ts']]);

    const metas = project.session.entries().flatMap((e) => (e.kind === 'message' ? [[e.message.role, e.meta?.projectName, e.meta?.projects]] : []));
    expect(metas).toEqual([
      ['user', 'web', undefined],
      ['assistant', 'web', undefined],
      ['tool', 'web', ['api']],
      ['assistant', 'web', undefined],
      ['tool', 'web', ['web']],
      ['assistant', 'web', undefined],
    ]);
  });

  it('lists the projects with type, branch and the current one in the workspace context', async () => {
    put(join(api, '.git', 'HEAD'), 'ref: refs/heads/api-branch\n');
    const ctx = await context([reply.text('a'), reply.text('b')]);
    const project = track(new Project(ctx, ctx.sessions.create()));
    await project.send('hello', {});
    expect(systemOf(0)).toContain(`- web (current project): ${web} — TypeScript (Node.js); not in git`);
    expect(systemOf(0)).toContain(`- api: ${api} — Go; git branch api-branch`);

    project.selectWorkspaceProject('api');
    await project.send('again', {});
    expect(systemOf(1)).toContain(`- web: ${web} — TypeScript (Node.js)`);
    expect(systemOf(1)).toContain(`- api (current project): ${api} — Go; git branch api-branch`);
  });

  it('switches the current project, keeps the choice in the session and comes back to it on resume', async () => {
    const ctx = await context([reply.tool('read', { file_path: 'src/server.go' }), reply.text('read it')]);
    const first = new Project(ctx, ctx.sessions.create());
    expect(first.currentWorkspaceProject.name).toBe('web');
    expect(first.selectWorkspaceProject('api')).toMatchObject({ name: 'api', path: api });
    await first.send('read the server', {});
    expect(JSON.stringify(server.requests[1].body.messages.at(-1))).toContain('the api server');
    const id = first.session.id;
    first.session.close();

    const resumed = track(new Project(ctx, ctx.sessions.open(id)));
    expect(resumed.currentWorkspaceProject.name).toBe('api');
    expect(resumed.workspace.root).toBe(api);
    expect(() => resumed.selectWorkspaceProject('docs')).toThrow(/no workspace folder "docs".*web \(.*api \(/s);
    expect(resumed.currentWorkspaceProject.name).toBe('api');
  });

  it('falls back to the first folder, saying so, when the recorded project left the workspace', async () => {
    const ctx = await context([]);
    const first = new Project(ctx, ctx.sessions.create());
    first.selectWorkspaceProject('api');
    const id = first.session.id;
    first.session.close();
    const logs: string[] = [];
    const webOnly = await Context.create({
      folders: [{ path: web }],
      workspaceFile,
      host: createFsHost({ log: (level, message) => logs.push(`${level}: ${message}`) }),
      env: { KEEL_HOME: home },
    });
    const resumed = track(new Project(webOnly, webOnly.sessions.open(id)));
    expect(resumed.currentWorkspaceProject.name).toBe('web');
    expect(logs.join('\n')).toMatch(new RegExp(`warn: session ${id}: .*${api}.* not a folder of this workspace`));
  });

  it('keeps the current project when its folder is renamed in the workspace file (recorded by path)', async () => {
    const ctx = await context([]);
    const first = new Project(ctx, ctx.sessions.create());
    first.selectWorkspaceProject('api');
    const id = first.session.id;
    first.session.close();
    const renamed = await Context.create({
      folders: [{ path: web }, { path: api, name: 'backend' }],
      workspaceFile,
      host: createFsHost(),
      env: { KEEL_HOME: home },
    });
    const resumed = track(new Project(renamed, renamed.sessions.open(id)));
    expect(resumed.currentWorkspaceProject).toMatchObject({ name: 'backend', path: api });
  });

  it('asks before writing a protected file of the second folder, even in yolo mode', async () => {
    const ctx = await context([reply.tool('write', { file_path: 'api/.vscode/settings.json', content: '{}' }), reply.text('ok')], 'yolo');
    const project = track(new Project(ctx, ctx.sessions.create()));
    const ask = approver({ approved: false });
    await project.send('configure the api folder', ask);
    expect(ask.asked).toHaveLength(1);
    expect(ask.asked[0]).toMatchObject({ protected: true, paths: ['api/.vscode/settings.json'] });
  });

  it('tells the model which folders exist when a path leads outside them', async () => {
    const ctx = await context([reply.tool('read', { file_path: '../elsewhere.txt' }), reply.text('ok')]);
    const project = track(new Project(ctx, ctx.sessions.create()));
    await project.send('read it', {});
    const toolMessage = JSON.stringify(server.requests[1].body.messages.at(-1));
    expect(toolMessage).toMatch(/outside the workspace/);
    expect(toolMessage).toContain(`web (${web}, current project)`);
    expect(toolMessage).toContain(`api (${api})`);
  });

  it('keeps the sessions under the workspace file\'s key, not a folder\'s', async () => {
    const ctx = await context([reply.text('stored')]);
    const project = track(new Project(ctx, ctx.sessions.create()));
    await project.send('remember me', {});
    expect(ctx.paths.workspaceKey).toBe(workspaceKey({ root: web, workspaceFile }));
    expect(ctx.paths.workspaceKey).toMatch(/^team-[0-9a-f]{10}$/);
    expect(ctx.sessions.list().map((s) => s.id)).toContain(project.session.id);
    expect(project.session.header).toMatchObject({ workspaceFile, workspaceKey: ctx.paths.workspaceKey });
  });
});
