import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-cmdundo-'));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  mkdirSync(join(dir, 'home'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const crlfBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first line\r\nsecond line\r\n')]);
const script = Buffer.from('#!/bin/sh\necho hi\n');

/** Files a command will edit, delete, rename and chmod. */
function seedFiles(): void {
  writeFileSync(join(ws, 'crlf.txt'), crlfBom);
  writeFileSync(join(ws, 'gone.txt'), 'to be deleted\n');
  writeFileSync(join(ws, 'old-name.txt'), 'renamed content\n');
  writeFileSync(join(ws, 'run.sh'), script);
  chmodSync(join(ws, 'run.sh'), 0o755);
  writeFileSync(join(ws, 'plain.txt'), 'plain\n');
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(ws, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(ws, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;\n');
}

const theCommand =
  "sed -i 's/second/SECOND/' crlf.txt && rm gone.txt && mv old-name.txt new-name.txt && printf 'created\\n' > created.txt && " +
  "chmod -x run.sh && printf 'changed by npm\\n' > node_modules/pkg/index.js";

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: ws, encoding: 'utf8' });
}

function gitInit(): void {
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  // A stash entry and a staged change the person has: they must stay exactly as they are.
  writeFileSync(join(ws, 'plain.txt'), 'stashed work\n');
  git('stash', '-q');
  writeFileSync(join(ws, 'plain.txt'), 'staged work\n');
  git('add', 'plain.txt');
}

/** Everything of the person's repository a snapshot must never change. */
function personRepoState(): string {
  const index = createHash('sha256').update(readFileSync(join(ws, '.git', 'index'))).digest('hex');
  return [git('status', '--porcelain=v2', '--untracked-files=all', '--ignored'), index, git('stash', 'list', '--format=%H %s'), git('for-each-ref'), git('rev-parse', 'HEAD')].join('\n--\n');
}

function filesState(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['crlf.txt', 'gone.txt', 'old-name.txt', 'new-name.txt', 'created.txt', 'run.sh', 'node_modules/pkg/index.js']) {
    const path = join(ws, name);
    out[name] = existsSync(path) ? `${(statSync(path).mode & 0o777).toString(8)} ${readFileSync(path).toString('base64')}` : 'absent';
  }
  return out;
}

async function project(turns: Turn[]) {
  server.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: join(dir, 'home') },
    overrides: [{ model: 'local/scripted', approvalMode: 'yolo', providers: { local: { baseURL: server.baseURL } } }],
  });
  return new Project(ctx, ctx.sessions.create());
}

async function runCommand(p: Project, events: ProjectEvent[]): Promise<void> {
  const result = await p.send('change things', { onEvent: (e) => events.push(e) });
  expect(result.status).toBe('completed');
}

function bashTurns(command: string): Turn[] {
  return [reply.tools([{ name: 'bash', arguments: { command } }]), reply.text('done')];
}

describe.each([
  ['a git repository', true],
  ['a folder that is not a git repository', false],
])('what a command changed, in %s', (_name, withGit) => {
  it('is listed, and Undo on the call puts back the exact bytes and modes; ignored files are neither recorded nor touched', async () => {
    seedFiles();
    if (withGit) gitInit();
    const before = filesState();
    const repoBefore = withGit ? personRepoState() : '';
    const p = await project(bashTurns(theCommand));
    const events: ProjectEvent[] = [];
    await runCommand(p, events);
    const changed = events.find((e): e is Extract<ProjectEvent, { type: 'command_changes' }> => e.type === 'command_changes');
    expect(changed?.changes.map((c) => [c.displayPath, c.kind]).sort()).toEqual([
      ['created.txt', 'added'],
      ['crlf.txt', 'modified'],
      ['gone.txt', 'deleted'],
      ['new-name.txt', 'added'],
      ['old-name.txt', 'deleted'],
      ['run.sh', 'modified'],
    ]);
    expect(changed?.changes.find((c) => c.displayPath === 'crlf.txt')).toMatchObject({ added: 1, removed: 1 });
    const after = filesState();
    expect(after['node_modules/pkg/index.js']).not.toEqual(before['node_modules/pkg/index.js']);

    const outcome = await p.fileUndo!.restore.undoCall(changed!.toolCallId);
    expect(outcome.status).toBe('reverted');
    expect(filesState()).toEqual({ ...before, 'node_modules/pkg/index.js': after['node_modules/pkg/index.js'] });
    // The sandbox's empty placeholders for missing protected paths linger a moment after a command.
    await sweepPlaceholders();
    if (withGit) expect(personRepoState()).toEqual(repoBefore);
    // Nothing of node_modules was recorded: no snapshot names it.
    const recorded = p.session.fileHistory().flatMap((r) => (r.type === 'snapshot' ? r.changes.map((c) => c.displayPath) : []));
    expect(recorded.length).toBe(6);
    expect(recorded.filter((path) => path.includes('node_modules'))).toEqual([]);
    await p.dispose();
  });
});

describe('Restore files to here, over commands and edits', () => {
  it('puts back every file changed from the message on, by any tool; a change the person made in between blocks it until forced', async () => {
    seedFiles();
    gitInit();
    const before = filesState();
    const repoBefore = personRepoState();
    const p = await project([
      reply.tools([{ name: 'read', arguments: { file_path: 'crlf.txt' } }]),
      reply.tools([{ name: 'edit', arguments: { file_path: 'crlf.txt', old_string: 'first', new_string: 'FIRST' } }]),
      ...bashTurns(theCommand),
    ]);
    const events: ProjectEvent[] = [];
    await runCommand(p, events);
    const calls = events.filter((e) => e.type === 'tool_use').map((e) => (e as { toolCallId: string }).toolCallId);
    // The person edits a file the command created, with their own command, after Keel's.
    writeFileSync(join(ws, 'created.txt'), 'the person wrote this\n');

    const blocked = await p.fileUndo!.restore.restoreFrom(calls);
    expect(blocked.status).toBe('conflict');
    expect(blocked.message).toContain('created.txt');
    expect(readFileSync(join(ws, 'created.txt'), 'utf8')).toBe('the person wrote this\n');
    expect(existsSync(join(ws, 'gone.txt'))).toBe(false);

    const forced = await p.fileUndo!.restore.restoreFrom(calls, { force: true });
    expect(forced.status).toBe('reverted');
    const now = filesState();
    expect(now).toEqual({ ...before, 'node_modules/pkg/index.js': now['node_modules/pkg/index.js'] });
    expect(readFileSync(join(ws, 'crlf.txt'))).toEqual(crlfBom);
    await sweepPlaceholders();
    expect(personRepoState()).toEqual(repoBefore);
    await p.dispose();
  });

  it('a change the person made between two of Keel\u2019s changes to the same file is a conflict', async () => {
    writeFileSync(join(ws, 'f.txt'), 'one\n');
    const p = await project([
      ...bashTurns("printf 'two\\n' > f.txt"),
      ...bashTurns("printf 'three\\n' >> f.txt"),
    ]);
    const events: ProjectEvent[] = [];
    await runCommand(p, events);
    writeFileSync(join(ws, 'f.txt'), 'two, edited by the person\n');
    await runCommand(p, events);
    const calls = events.filter((e) => e.type === 'tool_use').map((e) => (e as { toolCallId: string }).toolCallId);
    const outcome = await p.fileUndo!.restore.restoreFrom(calls);
    expect(outcome.status).toBe('conflict');
    expect(outcome.message).toContain('between');
    expect(readFileSync(join(ws, 'f.txt'), 'utf8')).toBe('two, edited by the person\nthree\n');
    await p.dispose();
  });
});

describe('a background command', () => {
  it('is snapshotted when it ends: what it changed is recorded under its call and can be undone', async () => {
    writeFileSync(join(ws, 'log.txt'), 'before\n');
    const p = await project([
      reply.tools([{ name: 'bash', arguments: { command: "printf 'written by the job\\n' > log.txt; rm -f never.txt", run_in_background: true } }]),
      reply.text('started'),
    ]);
    const events: ProjectEvent[] = [];
    await runCommand(p, events);
    const job = p.jobs.list()[0]!;
    await job.whenExited();
    await p.fileUndo!.snapshots.settle();
    const records = p.session.fileHistory().filter((r) => r.type === 'snapshot');
    expect(records.flatMap((r) => (r.type === 'snapshot' ? r.changes.map((c) => [c.displayPath, c.kind]) : []))).toEqual([['log.txt', 'modified']]);
    const call = events.find((e) => e.type === 'tool_use') as { toolCallId: string };
    expect((await p.fileUndo!.restore.undoCall(call.toolCallId)).status).toBe('reverted');
    expect(readFileSync(join(ws, 'log.txt'), 'utf8')).toBe('before\n');
    await p.dispose();
  });
});
