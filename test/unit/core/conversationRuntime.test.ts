// A conversation outlasts its configuration: a new Context (another model, other settings)
// reaches the next run, and what the conversation holds stays.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;
let home: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-runtime-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function context(model: string, folder = ws): Promise<Context> {
  return Context.create({
    folders: [{ path: folder }],
    host: createFsHost(),
    env: { KEEL_HOME: home },
    overrides: [{ model: `local/${model}`, approvalMode: 'yolo', providers: { local: { baseURL: server.baseURL } } }],
  });
}

describe('ConversationRuntime', () => {
  it('keeps the files read, the todos and the background commands when the Context changes; the next run uses the new one', async () => {
    const first = await context('scripted');
    const project = new Project(first, first.sessions.create());
    try {
      server.load({
        turns: [
          reply.tool('read', { file_path: 'a.txt' }),
          reply.tool('todo_write', { todos: [{ id: '1', content: 'check a.txt', status: 'in_progress' }] }),
          reply.text('read it'),
          reply.tool('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'omega' }),
          reply.text('edited'),
        ],
      });
      expect((await project.send('read a.txt')).status).toBe('completed');
      const jobs = project.jobs;
      const todos = project.todos.get();
      expect(todos.map((t) => t.content)).toEqual(['check a.txt']);

      const second = await context('other');
      project.useContext(second);
      expect(project.ctx).toBe(second);
      expect(project.jobs).toBe(jobs);
      expect(project.todos.get()).toEqual(todos);

      const result = await project.send('edit a.txt');
      expect(result.status).toBe('completed');
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('omega\n');
      expect((server.requests.at(-1)!.body as { model: string }).model).toBe('other');
    } finally {
      await project.dispose();
      project.session.close();
    }
  });

  it('refuses a Context of another workspace: that conversation is not this one', async () => {
    const first = await context('scripted');
    const project = new Project(first, first.sessions.create());
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    try {
      const other = await context('scripted', elsewhere);
      expect(() => project.useContext(other)).toThrow(/belongs to another workspace/);
      expect(project.ctx).toBe(first);
    } finally {
      project.session.close();
    }
  });
});
