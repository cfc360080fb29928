// What Keel's requests cost the person: the size of the first request of a small task, and
// how much of each request a provider's prompt cache can reuse from the one before it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from '../../src/core/context';
import { createFsHost } from '../../src/core/fsHost';
import { Project } from '../../src/core/project';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import type { BenchSuite } from './benchTypes';

interface Run {
  /** chars/4 of the first request's text: its messages' text and the tool definitions as JSON. */
  firstTokens: number;
  /** Share of the previous request's conversation items that the first request of each later message does not start with (0 = append-only). */
  lost: number;
}

/** A read-edit-answer task, then two more messages, on a copy of the sample workspace. */
async function task(server: ScriptedServer): Promise<Run> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-req-')));
  const ws = join(dir, 'ws');
  cpSync(join(process.cwd(), 'test/fixtures/workspaces/sample'), ws, { recursive: true });
  // A git repository, so the edit shows in `git status` as it would in a real one.
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env: { ...process.env, GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@e.st', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@e.st' } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'start');
  try {
    server.load({
      turns: [
        reply.tool('read', { file_path: 'README.md' }),
        reply.tool('edit', { file_path: 'README.md', old_string: 'A tiny TypeScript project', new_string: 'A small TypeScript project' }),
        reply.text('Done: README.md says small now.'),
        reply.text('It is a sample workspace.'),
        reply.text('You are welcome.'),
      ],
    });
    const ctx = await Context.create({
      folders: [{ path: ws }],
      host: createFsHost(),
      env: { KEEL_HOME: join(dir, 'home') },
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }],
    });
    const project = new Project(ctx, ctx.sessions.create());
    const firsts: number[] = [];
    for (const text of ['Say small instead of tiny in the README.', 'What is this workspace?', 'Thanks.']) {
      firsts.push(server.requests.length);
      await project.send(text, { onToolApprove: async () => ({ approved: true }) });
    }
    project.session.close();
    if (!readFileSync(join(ws, 'README.md'), 'utf8').includes('A small TypeScript project')) throw new Error('the edit of the task was not applied');
    const items = (i: number) => (server.requests[i].body.messages as unknown[]).map((m) => JSON.stringify(m));
    let kept = 0;
    let total = 0;
    for (const first of firsts.slice(1)) {
      const before = items(first - 1);
      const after = items(first);
      total += before.join('').length;
      for (let i = 0; i < before.length && after[i] === before[i]; i++) kept += before[i].length;
    }
    const body = server.requests[0].body;
    const text = body.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('') + JSON.stringify(body.tools ?? []);
    return { firstTokens: Math.ceil(text.length / 4), lost: 1 - kept / total };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let server: ScriptedServer | undefined;
const started = async () => (server ??= await startScriptedServer());

export const suite: BenchSuite = {
  name: 'requests',
  benches: [
    {
      name: 'first request of a read-edit-answer task (chars/4 of its messages and tool definitions)',
      target: '≤ 3,100 tokens',
      limit: 3100,
      unit: 'tokens',
      runs: 3,
      setup: started,
      run: async (s: ScriptedServer) => (await task(s)).firstTokens,
    },
    {
      name: 'share of the previous request a new user message does not reuse as its prefix (0 = append-only)',
      target: '0',
      limit: 0,
      unit: 'share',
      runs: 3,
      setup: started,
      run: async (s: ScriptedServer) => (await task(s)).lost,
      teardown: async () => {
        await server?.close();
        server = undefined;
      },
    },
  ],
};
