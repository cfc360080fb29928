import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { SessionStore } from '../../../src/core/session/sessionStore';
import { runCli, useCliRig } from './cliHarness';

const gitEnv = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv } });

const rig = useCliRig((box) => {
  writeFileSync(join(box.ws, 'app.ts'), 'export const answer = 41;\n');
  git(box.ws, 'init', '-q', '-b', 'main');
  git(box.ws, 'add', '-A');
  git(box.ws, 'commit', '-qm', 'first');
});

// A second model server, so two runs can stream at once without sharing one script.
let other: ScriptedServer;
beforeAll(async () => {
  other = await startScriptedServer();
});
afterAll(() => other.close());

const editTo = (value: string, delayMs = 0): Turn[] => [
  reply.tool('read', { file_path: 'app.ts' }, { delayMs }),
  reply.tool('edit', { file_path: 'app.ts', old_string: 'answer = 41', new_string: `answer = ${value}` }),
  { ...reply.text(`Set it to ${value}.`), match: { lastToolResultIncludes: 'Edited app.ts' } },
];

function keel(server: ScriptedServer, turns: Turn[], args: string[]) {
  server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', server.baseURL, '--output', 'stream-json', '--approval', 'yolo', ...args], {
    KEEL_HOME: rig.box.home,
    ...gitEnv,
  });
}

/** What the person's checkout looks like to git, to compare before and after. */
const checkoutState = (ws: string) => ({
  head: git(ws, 'rev-parse', 'HEAD'),
  branch: git(ws, 'symbolic-ref', 'HEAD'),
  status: git(ws, 'status', '--porcelain'),
  index: git(ws, 'ls-files', '--stage'),
  file: readFileSync(join(ws, 'app.ts'), 'utf8'),
});

describe('keel run --worktree', { timeout: 90_000 }, () => {
  it('edits on a new branch in a worktree outside the workspace and leaves the checkout as it was', async () => {
    const before = checkoutState(rig.box.ws);
    const r = await keel(rig.server, editTo('42'), ['--worktree=fix-answer', 'Fix the answer']);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    const started = r.lines[0];
    expect(started).toMatchObject({ type: 'worktree', branch: 'keel/fix-answer', base: before.head.trim() });
    const path = String(started.path);
    expect(path.startsWith(rig.box.home)).toBe(true);
    expect(readFileSync(join(path, 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    expect(checkoutState(rig.box.ws)).toEqual(before);
    expect(git(rig.box.ws, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/keel').trim()).toBe('keel/fix-answer');
    // The session is the checkout's, as a VS Code window of the checkout lists it: with its branch.
    const sessionId = String(r.lines.at(-1)!.sessionId);
    const windowStore = new SessionStore({ home: rig.box.home, workspace: { root: rig.box.ws } });
    expect(windowStore.list().find((s) => s.id === sessionId)).toMatchObject({ branch: 'keel/fix-answer' });
    const stored = windowStore.open(sessionId, { readOnly: true });
    expect(stored.config().worktree).toEqual({ path, branch: 'keel/fix-answer', base: before.head.trim(), repo: expect.any(String) });
    stored.close();
    const listed = await runCli(rig.cli, ['sessions', '--cwd', rig.box.ws, '--json'], { KEEL_HOME: rig.box.home });
    expect(listed.stdout).toContain(sessionId);
    const inWorktree = await runCli(rig.cli, ['sessions', '--cwd', path, '--json'], { KEEL_HOME: rig.box.home });
    expect(inWorktree.stdout, 'nothing is kept under the worktree folder').not.toContain(sessionId);
  });

  it('--session of a worktree run goes on in its worktree, from the checkout, and the checkout stays as it was', async () => {
    const first = await keel(rig.server, editTo('43'), ['--worktree=resume-me', 'Fix the answer']);
    expect(first.code, first.stdout).toBe(0);
    const path = String(first.lines[0].path);
    const sessionId = String(first.lines.at(-1)!.sessionId);
    const before = checkoutState(rig.box.ws);
    const again = await keel(
      rig.server,
      [
        reply.tool('read', { file_path: 'app.ts' }),
        reply.tool('edit', { file_path: 'app.ts', old_string: 'answer = 43', new_string: 'answer = 44' }),
        { ...reply.text('Now 44.'), match: { lastToolResultIncludes: 'Edited app.ts' } },
      ],
      ['--session', sessionId, 'One more'],
    );
    expect(again.stderr).toBe('');
    expect(again.code, again.stdout).toBe(0);
    expect(again.lines.at(-1)).toMatchObject({ type: 'result', success: true, sessionId });
    // The model saw the earlier turns: the same conversation, not a new one.
    expect(JSON.stringify(rig.server.requests[0].body.messages)).toContain('Set it to 43.');
    expect(readFileSync(join(path, 'app.ts'), 'utf8')).toBe('export const answer = 44;\n');
    expect(checkoutState(rig.box.ws)).toEqual(before);
    expect(git(rig.box.ws, 'worktree', 'list')).toContain('keel/resume-me');
  });

  it('refuses --session of a worktree run whose worktree was removed, and touches the checkout never', async () => {
    const first = await keel(rig.server, [reply.text('Looked.')], ['--worktree=gone-soon', 'Look']);
    expect(first.code, first.stdout).toBe(0);
    const path = String(first.lines[0].path);
    git(rig.box.ws, 'worktree', 'remove', '--force', path);
    const before = checkoutState(rig.box.ws);
    const again = await keel(rig.server, [reply.text('never')], ['--session', String(first.lines.at(-1)!.sessionId), 'Go on']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/which was removed; it cannot go on there/);
    expect(rig.server.requests).toHaveLength(0);
    expect(checkoutState(rig.box.ws)).toEqual(before);
  });

  it('refuses --worktree together with --session', async () => {
    const r = await keel(rig.server, [reply.text('never')], ['--worktree=both', '--session', 'abc', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--worktree starts a new conversation/);
    expect(git(rig.box.ws, 'branch', '--list', 'keel/both').trim()).toBe('');
  });

  it('runs two conversations at once, each in its own worktree, editing the same file differently', async () => {
    const before = checkoutState(rig.box.ws);
    const [a, b] = await Promise.all([
      keel(rig.server, editTo('1', 300), ['--worktree=one', 'Set it to 1']),
      keel(other, editTo('2', 300), ['--worktree=two', 'Set it to 2']),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(readFileSync(join(String(a.lines[0].path), 'app.ts'), 'utf8')).toBe('export const answer = 1;\n');
    expect(readFileSync(join(String(b.lines[0].path), 'app.ts'), 'utf8')).toBe('export const answer = 2;\n');
    expect(checkoutState(rig.box.ws)).toEqual(before);
  });

  it('names the worktree with the word after --worktree when a prompt follows (--worktree NAME PROMPT)', async () => {
    const r = await keel(rig.server, [reply.text('Done.')], ['--worktree', 'feat1', 'write it']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines[0]).toMatchObject({ type: 'worktree', branch: 'keel/feat1' });
    const sent = JSON.stringify(rig.server.requests[0].body.messages.at(-1));
    expect(sent).toContain('write it');
    expect(sent).not.toContain('feat1 write it');
  });

  it('makes up a name when none is given, and a prompt after the flag stays the prompt', async () => {
    const r = await keel(rig.server, [reply.text('Nothing to do.')], ['--worktree', 'Look around']);
    expect(r.code).toBe(0);
    expect(String(r.lines[0].branch)).toMatch(/^keel\/\d{8}-\d{6}-[a-z0-9]+$/);
    expect(rig.server.requests[0].body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(rig.server.requests[0].body.messages.at(-1))).toContain('Look around');
  });

  it('says plainly when the folder is not a git checkout, and makes nothing', async () => {
    const plain = join(rig.box.dir, 'plain');
    execFileSync('mkdir', [plain]);
    rig.server.load({ turns: [reply.text('never')] });
    const r = await runCli(rig.cli, ['run', '--cwd', plain, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--worktree', 'Look at x'], { KEEL_HOME: rig.box.home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs a git repository/);
    expect(rig.server.requests).toHaveLength(0);
  });

  it('refuses a name that cannot be a branch or folder', async () => {
    const r = await keel(rig.server, [reply.text('never')], ['--worktree=../escape', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot name a worktree/);
    expect(existsSync(join(rig.box.dir, 'escape'))).toBe(false);
  });

  it('takes the worktree and its branch back when the run cannot start', async () => {
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--worktree=nomodel', 'x'], { KEEL_HOME: rig.box.home, OPENAI_API_KEY: '' });
    expect(r.code).toBe(2);
    expect(git(rig.box.ws, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/keel').trim()).toBe('');
    expect(git(rig.box.ws, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});
