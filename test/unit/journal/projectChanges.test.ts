import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import { editTool } from '../../../src/core/tools/editTool';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { createToolEnv } from '../tools/toolTestKit';

let server: ScriptedServer;
let dir: string;
let ws: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-changes-'));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
  writeFileSync(join(ws, 'b.txt'), 'beta\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function project(turns: Turn[]) {
  server.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: join(dir, 'home') },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }],
  });
  return new Project(ctx, ctx.sessions.create());
}

/** Approvals answered by the test when it chooses, to see which are open at the same time. */
function gate() {
  const open: { request: ApprovalRequest; answer: (a: ApprovalAnswer) => void }[] = [];
  const events: ProjectEvent[] = [];
  let notify: (() => void) | undefined;
  return {
    open,
    events,
    onEvent: (e: ProjectEvent) => events.push(e),
    onToolApprove: (request: ApprovalRequest) =>
      new Promise<ApprovalAnswer>((answer) => {
        open.push({ request, answer });
        notify?.();
      }),
    async until(count: number): Promise<void> {
      while (open.length < count) await new Promise<void>((r) => (notify = r));
    },
  };
}

const readBoth = reply.tools([
  { name: 'read', arguments: { file_path: 'a.txt' } },
  { name: 'read', arguments: { file_path: 'b.txt' } },
]);

describe('file changes of one turn', () => {
  it('are all pending at once, and each is applied as answered', async () => {
    const p = await project([
      readBoth,
      reply.tools([
        { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } },
        { name: 'edit', arguments: { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' } },
      ]),
      reply.text('done'),
    ]);
    const g = gate();
    const run = p.send('shout', g);
    await g.until(2);
    expect(g.open.map((o) => o.request.change?.displayPath)).toEqual(['a.txt', 'b.txt']);
    // Answered out of order: the second first.
    g.open[1]!.answer({ approved: false, reason: 'keep b' });
    g.open[0]!.answer({ approved: true });
    await run;
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('ALPHA\n');
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('beta\n');
  });

  it('a second change to the same file is asked after the first is applied, against the changed file', async () => {
    const p = await project([
      reply.tool('read', { file_path: 'a.txt' }),
      reply.tools([
        { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'alpha', new_string: 'alpha one' } },
        { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } },
      ]),
      reply.text('done'),
    ]);
    const g = gate();
    const run = p.send('twice', g);
    await g.until(1);
    g.open[0]!.answer({ approved: true });
    await g.until(2);
    // Previewed after the first edit was written: it shows the file as the first left it.
    expect(g.open[1]!.request.change).toMatchObject({ before: 'alpha one\n', after: 'alpha two\n' });
    g.open[1]!.answer({ approved: true });
    await run;
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha two\n');
  });

  it('cancelling the run rejects every pending change and writes nothing', async () => {
    const p = await project([
      readBoth,
      reply.tools([
        { name: 'write', arguments: { file_path: 'a.txt', content: 'x\n' } },
        { name: 'write', arguments: { file_path: 'b.txt', content: 'y\n' } },
      ]),
      reply.text('stopped'),
    ]);
    const g = gate();
    const abort = new AbortController();
    const run = p.send('rewrite', { ...g, signal: abort.signal, onToolApprove: (r) => {
      const answer = g.onToolApprove(r);
      return Promise.race([answer, new Promise<ApprovalAnswer>((resolve) => abort.signal.addEventListener('abort', () => resolve({ approved: false, reason: 'the run was cancelled' })))]);
    } });
    await g.until(2);
    abort.abort();
    await run;
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('beta\n');
  });

  it('applied changes are journaled, announced, and can be undone', async () => {
    const p = await project([reply.tool('read', { file_path: 'a.txt' }), reply.tool('write', { file_path: 'a.txt', content: 'omega\n' }), reply.text('ok')]);
    const g = gate();
    const run = p.send('rewrite', g);
    await g.until(1);
    g.open[0]!.answer({ approved: true });
    await run;
    const announced = g.events.filter((e): e is Extract<ProjectEvent, { type: 'file_change' }> => e.type === 'file_change');
    expect(announced).toHaveLength(1);
    expect(announced[0]!.change).toMatchObject({ displayPath: 'a.txt', kind: 'edit', undoable: true, reverted: false });
    expect((await p.fileUndo!.restore.undoChange(announced[0]!.change.id)).status).toBe('reverted');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha\n');
    // The next message tells the model, so it does not build on a change that is gone.
    server.load({ turns: [reply.text('noted')] });
    await p.send('carry on', g);
    expect(JSON.stringify(server.requests.at(-1)?.body.messages.at(-1))).toMatch(/undid Keel's changes to a\.txt/);
  });
});

describe('the path of a change', () => {
  it('is resolved again when it is applied: a link swapped after the preview is refused', async () => {
    const env = await createToolEnv();
    try {
      await env.file('real/one.txt', 'one\n');
      await env.file('real/two.txt', 'one\n');
      const link = join(env.root, 'link.txt');
      symlinkSync(join(env.root, 'real/one.txt'), link);
      await env.reads.record(realpathSync(join(env.root, 'real/one.txt')), 'one\n');
      await env.reads.record(realpathSync(join(env.root, 'real/two.txt')), 'one\n');
      const input = { file_path: 'link.txt', old_string: 'one', new_string: 'ONE' };
      const ctx = env.ctx();
      const preview = await editTool.preview!(input, ctx);
      unlinkSync(link);
      symlinkSync(join(env.root, 'real/two.txt'), link);
      const result = await editTool.execute(input, env.ctx({ preview, approval: { approved: true } }));
      expect(result.isError).toBe(true);
      expect(String(result.output)).toMatch(/now resolves to .*two\.txt.*nothing was written/);
      expect(readFileSync(join(env.root, 'real/two.txt'), 'utf8')).toBe('one\n');
      expect(readFileSync(join(env.root, 'real/one.txt'), 'utf8')).toBe('one\n');
    } finally {
      await env.cleanup();
    }
  });
});
