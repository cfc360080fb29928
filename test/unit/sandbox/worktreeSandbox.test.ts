import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { createWorktree, defaultWorktreeRoot } from '../../../src/core/worktrees/gitWorktree';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';
import { gitEnv, requireRealSandbox, run, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

// The real bubblewrap, in a linked worktree made where Keel makes them (under KEEL_HOME, which the sandbox hides).
describe('the OS sandbox in a linked git worktree', () => {
  let f: SandboxFixture;
  let wt: Worktree;
  let sandbox: CommandSandbox;
  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
    wt = await createWorktree({ dir: f.ws, root: defaultWorktreeRoot(f.keelHome, f.ws), name: 'fix-1' });
    await mkdir(join(f.keelHome, 'projects', 'other'), { recursive: true });
    await writeFile(join(f.keelHome, 'projects', 'other', 'secret.txt'), 'other-project-secret\n');
    sandbox = new CommandSandbox({ mode: 'on', folders: [wt.path], home: f.home, keelHome: f.keelHome });
    forgetSandboxLayouts();
  });
  afterAll(async () => f?.dispose());

  async function inWorktree(command: string) {
    const start = await sandbox.start({ cwd: wt.path, network: false });
    try {
      return await run([...start.prefix, '/bin/sh', '-c', command], wt.path, { HOME: f.home, KEEL_HOME: f.keelHome, ...gitEnv });
    } finally {
      await start.release();
    }
  }

  it('git add and git commit work and land on the worktree branch, not the checkout', async () => {
    await writeFile(join(wt.path, 'change.txt'), 'a change\n');
    const ran = await inWorktree('git add change.txt && git commit -q -m "agent change" && git log --oneline -1');
    expect(ran.code, ran.output).toBe(0);
    const log = spawnSync('git', ['log', '--format=%s', '-1', wt.branch], { cwd: f.ws, encoding: 'utf8' }).stdout.trim();
    expect(log).toBe('agent change');
    const head = spawnSync('git', ['log', '--format=%s', '-1', 'HEAD'], { cwd: f.ws, encoding: 'utf8' }).stdout.trim();
    expect(head).toBe('start');
    expect(existsSync(join(f.ws, 'change.txt'))).toBe(false);
  });

  it("the checkout, the shared config and hooks, and the files that say where git looks stay read-only", async () => {
    const targets = [
      join(f.ws, 'README.md'),
      join(f.ws, '.git', 'config'),
      join(f.ws, '.git', 'hooks', 'pre-commit'),
      join(f.ws, '.git', 'index'),
      join(wt.path, '.git'),
      join(f.ws, '.git', 'worktrees', 'fix-1', 'commondir'),
      join(f.ws, '.git', 'worktrees', 'fix-1', 'gitdir'),
    ];
    const before = targets.map((t) => (existsSync(t) ? readFileSync(t) : null));
    const ran = await inWorktree(targets.map((t) => `echo pwned > '${t}' 2>/dev/null;`).join(' ') + ' echo done');
    expect(ran.output).toContain('done');
    targets.forEach((t, i) => expect(existsSync(t) ? readFileSync(t) : null, t).toEqual(before[i]));
  });

  it('Keel home stays hidden around the worktree', async () => {
    const ran = await inWorktree(`cat '${join(f.keelHome, 'config.json')}'; cat '${join(f.keelHome, 'projects', 'other', 'secret.txt')}'; cat change.txt`);
    expect(ran.output).toContain('a change');
    expect(ran.output).not.toContain('keel-home');
    expect(ran.output).not.toContain('other-project-secret');
  });
});
