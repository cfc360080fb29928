import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChatController } from '../../../src/chat/chatController';
import { CoreLoader } from '../../../src/chat/runtime/coreLoader';
import type { CoreInputs } from '../../../src/chat/runtime/coreLoader';
import type { SessionUi } from '../../../src/chat/sessions/sessionUi';
import { WorktreeCores } from '../../../src/chat/sessions/worktreeCores';
import { createFsHost } from '../../../src/core/fsHost';
import { sessionsDir, workspaceKey } from '../../../src/core/paths';
import { createWorktree } from '../../../src/core/worktrees/gitWorktree';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';
import type { LogFn } from '../../../src/protocol/log';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { until } from './chatHarness';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' };

// The chat layer with a worktree conversation: the real core, sessions and tools, the model on the scripted server.
describe('worktree conversations in the chat controller', () => {
  let server: ScriptedServer;
  let root: string;
  let controller: ChatController;
  let cores: WorktreeCores;
  let loader: CoreLoader;
  const deleted: Worktree[] = [];
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server?.close());
  afterEach(async () => {
    await controller?.dispose();
    await cores?.dispose();
    await loader?.dispose();
    rmSync(root, { recursive: true, force: true });
    deleted.length = 0;
  });

  function setUp(): { ws: string; home: string } {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'keel-wtchat-')));
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(ws);
    mkdirSync(home);
    writeFileSync(join(ws, 'hello.txt'), 'hello\n');
    execFileSync('git', ['init', '-q'], { cwd: ws });
    execFileSync('git', ['add', '-A'], { cwd: ws });
    execFileSync('git', ['commit', '-q', '-m', 'base'], { cwd: ws, env: gitEnv });
    const logs: string[] = [];
    const log: LogFn = (level, message) => logs.push(`${level}: ${message}`);
    const inputs: CoreInputs = {
      folders: () => [{ path: ws, name: 'ws' }],
      workspaceFile: () => undefined,
      trusted: () => true,
      settings: () => ({ settings: { baseUrl: server.baseURL, model: 'scripted-model', approvalMode: 'autoEdit' }, problems: [], fromWorkspace: {}, userModels: {}, narrowing: [] }),
      apiKey: async () => undefined,
      plugins: () => [],
      host: createFsHost({ log }),
      env: { KEEL_HOME: home },
    };
    loader = new CoreLoader(inputs, log);
    cores = new WorktreeCores({ workspace: loader, inputs, log });
    const sessionUi: SessionUi = { confirmDelete: async () => true, exportSession: async () => false };
    controller = new ChatController({
      core: loader,
      log,
      trusted: () => true,
      sessionUi,
      generateTitles: () => false,
      worktrees: { coreFor: (id) => cores.coreFor(id), deleted: async (wt) => void deleted.push(wt) },
    });
    return { ws, home };
  }

  async function sendAndWait(text: string): Promise<void> {
    await controller.inView.send({ text });
    await until(() => !controller.isRunning && controller.messages().at(-1)?.role === 'assistant' && controller.messages().at(-1)?.status === 'done', `the reply to ${text}`);
  }

  it('runs in the worktree, keeps its session with the workspace, goes back to the workspace for a new chat, and reports a deleted conversation', async () => {
    const { ws, home } = setUp();
    const wt = await createWorktree({ dir: ws, root: join(root, 'worktrees'), name: 'unit' });
    await controller.sessions.newSession({ core: cores.sourceFor(wt), branch: wt.branch });
    server.load({ turns: [reply.tool('write', { file_path: 'notes.md', content: 'in the worktree\n' }), reply.text('written')] });
    await sendAndWait('write notes');
    expect(readFileSync(join(wt.path, 'notes.md'), 'utf8')).toBe('in the worktree\n');
    expect(existsSync(join(ws, 'notes.md'))).toBe(false);

    const dir = sessionsDir(home, workspaceKey({ root: ws }));
    const logs = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    expect(logs).toHaveLength(1);
    const id = logs[0]!.replace(/\.jsonl$/, '');
    expect(readFileSync(join(dir, logs[0]!), 'utf8')).toContain(`"key":"worktree","value":${JSON.stringify(wt)}`);
    expect(readdirSync(join(home, 'projects')).filter((d) => d.startsWith('unit'))).toEqual([]);

    await controller.sessions.newSession();
    expect(cores.worktreeOf(controller.coreInView())).toBeUndefined();
    server.load({ turns: [reply.tool('write', { file_path: 'notes.md', content: 'in the checkout\n' }), reply.text('written')] });
    await sendAndWait('write notes here');
    expect(readFileSync(join(ws, 'notes.md'), 'utf8')).toBe('in the checkout\n');
    expect(readFileSync(join(wt.path, 'notes.md'), 'utf8')).toBe('in the worktree\n');

    const listed = await controller.sessions.list({});
    expect(listed.sessions.map((s) => [s.id, s.branch])).toEqual(expect.arrayContaining([[id, 'keel/unit']]));
    expect(listed.sessions.filter((s) => s.id !== id).map((s) => s.branch)).toEqual([undefined]);
    await controller.sessions.resume(id);
    expect(cores.worktreeOf(controller.coreInView())).toEqual(wt);

    expect(await controller.sessions.delete(id)).toEqual({ deleted: true });
    expect(deleted).toEqual([wt]);
    expect(cores.worktreeOf(controller.coreInView())).toBeUndefined();
  });

  it('says a worktree is busy while a conversation on it runs (cleanup must wait for it)', async () => {
    const { ws } = setUp();
    const wt = await createWorktree({ dir: ws, root: join(root, 'worktrees'), name: 'busy' });
    const source = cores.sourceFor(wt);
    await controller.sessions.newSession({ core: source, branch: wt.branch });
    server.load({ turns: [reply.text('a slow answer, letter by letter', { chunkSize: 1, delayMs: 20 })] });
    await controller.inView.send({ text: 'talk slowly' });
    await until(() => controller.busyOn(source), 'the run on the worktree');
    expect(controller.busyOn(loader)).toBe(false);
    await until(() => !controller.isRunning, 'the end of the run');
    expect(controller.busyOn(source)).toBe(false);
  });

  it('refuses to resume a conversation whose worktree was removed, and stays where it was', async () => {
    const { ws } = setUp();
    const wt = await createWorktree({ dir: ws, root: join(root, 'worktrees'), name: 'gone' });
    await controller.sessions.newSession({ core: cores.sourceFor(wt), branch: wt.branch });
    server.load({ turns: [reply.text('hi')] });
    await sendAndWait('hello');
    const id = (await controller.sessions.list({})).sessions[0]!.id;
    await controller.sessions.newSession();
    execFileSync('git', ['worktree', 'remove', '--force', wt.path], { cwd: ws });
    await expect(controller.sessions.resume(id)).rejects.toThrow(/worktree .*gone.* which was removed/);
    expect(cores.worktreeOf(controller.coreInView())).toBeUndefined();
  });
});
