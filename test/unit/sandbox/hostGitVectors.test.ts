import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { takeGitSnapshot } from '../../../src/core/llmsContext/gitSnapshot';
import { expandGitDiff } from '../../../src/core/mentions/gitMention';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { createWorktree, uncommittedChanges } from '../../../src/core/worktrees/gitWorktree';
import { removeWorktreeFolder } from '../../../src/core/worktrees/worktreeCleanup';
import { worktreeChanges } from '../../../src/core/worktrees/worktreeDiff';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { gitVectors, type GitVectors } from './gitVectors';
import { gitEnv, requireRealSandbox, run } from './sandboxFixture';

/**
 * The host never runs what the sandbox could write: a workspace repository, a repository a
 * sandboxed command creates inside it, and one created in a worktree all name programs every
 * way git allows (config, `.gitattributes` drivers, hooks, an included file). Every path where
 * Keel runs git on the host is driven, and the markers folder on the host must stay empty
 * while each feature still does its job.
 */
describe('the host never runs what the sandbox could write (git)', () => {
  let root: string;
  let ws: string;
  let home: string;
  let v: GitVectors;
  let server: ScriptedServer;

  const sh = (script: string, cwd: string) => {
    const r = spawnSync('/bin/sh', ['-c', script], { cwd, env: { ...process.env, ...gitEnv }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`fixture script failed: ${r.stderr}`);
  };

  beforeAll(async () => {
    await requireRealSandbox();
    // Not under /tmp: the sandbox has a private /tmp.
    root = await realpath(await mkdtemp('/var/tmp/keel-hostgit-'));
    ws = join(root, 'ws');
    home = join(root, 'home');
    await mkdir(ws, { recursive: true });
    await mkdir(join(home, '.keel'), { recursive: true });
    v = await gitVectors(root);
    sh('git init -q -b main', ws);
    sh(v.plant('ws'), ws);
    server = await startScriptedServer();
  });
  afterEach(async () => v?.clear());
  afterAll(async () => {
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('(control) the planted vectors are live: the person’s own git runs them', async () => {
    const control = join(root, 'control');
    await mkdir(control);
    sh('git init -q -b main', control);
    sh(v.plant('control'), control);
    const off = '-c filter.evilp.process=';
    sh(
      [
        'git status',
        `git ${off} diff`,
        'git log -1',
        `git ${off} commit -qam x`,
        `git ${off} commit --allow-empty`,
        `rm a.txt; git ${off} checkout -- a.txt`,
        `git ${off} checkout -q -b other`,
        'git ls-remote ssh://example.invalid/x',
      ].map((c) => `${c} >/dev/null 2>&1`).join('; ') + '; true',
      control,
    );
    expect(await v.found()).toEqual(
      expect.arrayContaining([
        'fsmonitor', 'filter-clean', 'filter-smudge', 'filter-process', 'diff-command', 'diff-external', 'gpg', 'editor', 'ssh-command',
        'hook-pre-commit', 'hook-post-commit', 'hook-post-checkout', 'hook-reference-transaction', 'hook-post-index-change',
        'include-filter-clean', 'include-filter-smudge', 'include-diff-command',
      ].map((m) => `control-${m}`)),
    );
  });

  it('a run: context gathering, snapshots around sandboxed commands (one creates a planted repository) and undo', async () => {
    server.load({
      turns: [
        reply.tools([{ name: 'bash', arguments: { command: `git init -q -b main sub && cd sub && ${v.plant('nested')}` } }]),
        reply.tools([{ name: 'bash', arguments: { command: "printf 'more\\n' >> a.txt && printf 'x\\n' >> sub/a.txt && printf 'TWO\\n' > sub/b.p && touch b.p sub/c.inc" } }]),
        reply.text('done'),
      ],
    });
    const ctx = await Context.create({
      folders: [{ path: ws }],
      host: createFsHost(),
      env: { KEEL_HOME: join(home, '.keel'), HOME: home },
      overrides: [{ model: 'local/scripted', approvalMode: 'yolo', sandbox: 'on', providers: { local: { baseURL: server.baseURL } } }],
    });
    const p = new Project(ctx, ctx.sessions.create());
    const events: ProjectEvent[] = [];
    try {
      const result = await p.send('change things', { onEvent: (e) => events.push(e) });
      // The host's files first: no marker, whatever the run reports.
      expect((await v.found()).join(' ')).toBe('');
      expect(result.status).toBe('completed');
      // The sandboxed command made its repository, planted and committed.
      expect(existsSync(join(ws, 'sub', '.git', 'config'))).toBe(true);
      expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).toContain('fsmonitor');
      // Context gathering ran git status in the planted workspace: the model saw its changes.
      const firstRequest = JSON.stringify(server.requests[0]?.body);
      expect(firstRequest).toContain('Current branch: main');
      expect(firstRequest).toContain('a.txt');
      // Snapshots recorded what both commands changed, inside the new repository too.
      const changed = events.flatMap((e) => (e.type === 'command_changes' ? e.changes.map((c) => c.displayPath) : []));
      expect(changed).toEqual(expect.arrayContaining(['a.txt', join('sub', 'a.txt')]));
      expect((await v.found()).join(' ')).toBe('');

      const calls = events.filter((e) => e.type === 'tool_use').map((e) => (e as { toolCallId: string }).toolCallId);
      const undone = await p.fileUndo!.restore.undoCall(calls[1]!);
      expect(undone.status).toBe('reverted');
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one, changed\n');
      expect(readFileSync(join(ws, 'sub', 'a.txt'), 'utf8')).toBe('one, changed\n');
      expect((await v.found()).join(' ')).toBe('');
    } finally {
      await p.dispose();
    }
  });

  it('context gathering and the @git mention, in the workspace and in the repository a command made', async () => {
    for (const folder of [ws, join(ws, 'sub')]) {
      const snap = await takeGitSnapshot(folder);
      const mention = await expandGitDiff(folder);
      expect((await v.found()).join(' ')).toBe('');
      expect(snap.kind).toBe('repo');
      if (snap.kind === 'repo') expect(snap.status.join('\n')).toContain('a.txt');
      expect(mention.ok).toBe(true);
      if (mention.ok) expect(mention.body).toContain('a.txt');
    }
  });

  it('a worktree: created (checkout), a sandboxed command plants a repository in it, reviewed, removed with its branch', async () => {
    const made = await createWorktree({ dir: ws, root: join(root, 'worktrees'), name: 'w1' }).catch((err: Error) => err);
    expect((await v.found()).join(' ')).toBe('');
    if (made instanceof Error) throw made;
    const wt = made;
    expect(readFileSync(join(wt.path, 'a.txt'), 'utf8')).toBe('one\n');
    const sandbox = new CommandSandbox({ mode: 'on', folders: [wt.path], home, keelHome: join(home, '.keel') });
    const start = await sandbox.start({ cwd: wt.path, network: false });
    try {
      const ran = await run([...start.prefix, '/bin/sh', '-c', `printf 'agent\\n' >> a.txt && touch b.p && git init -q -b main inner && cd inner && ${v.plant('wtnested')}`], wt.path, { HOME: home, ...gitEnv });
      expect(ran.code, ran.output).toBe(0);
    } finally {
      await start.release();
    }
    const changes = await worktreeChanges(wt).catch((err: Error) => err);
    const uncommitted = await uncommittedChanges(wt.path).catch((err: Error) => err);
    expect((await v.found()).join(' ')).toBe('');
    if (changes instanceof Error) throw changes;
    expect(changes.find((c) => c.path === 'a.txt')?.status).toBe('modified');
    expect(String(uncommitted)).toContain('a.txt');
    const outcome = await removeWorktreeFolder(wt, { deleteBranch: true, confirm: async () => true }).catch((err: Error) => err);
    expect((await v.found()).join(' ')).toBe('');
    expect(outcome).toBe('removed');
    expect(existsSync(wt.path)).toBe(false);
    expect(spawnSync('git', ['rev-parse', '--verify', '--quiet', 'refs/heads/keel/w1'], { cwd: ws }).status).not.toBe(0);
    expect((await v.found()).join(' ')).toBe('');
  });
});
