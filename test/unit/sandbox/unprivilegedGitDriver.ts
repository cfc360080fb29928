// Bundled and run as an unprivileged user by hostGitUnprivileged.test.ts: every path where
// Keel runs git on the host, in a planted workspace and a repository a sandboxed command made.
// Prints one JSON line: the markers found after each step and what each feature returned.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { takeGitSnapshot } from '../../../src/core/llmsContext/gitSnapshot';
import { expandGitDiff } from '../../../src/core/mentions/gitMention';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { SnapshotRepo } from '../../../src/core/snapshots/snapshotRepo';
import { createWorktree } from '../../../src/core/worktrees/gitWorktree';
import { removeWorktreeFolder } from '../../../src/core/worktrees/worktreeCleanup';
import { worktreeChanges } from '../../../src/core/worktrees/worktreeDiff';
import { gitVectors } from './gitVectors';

const root = process.argv[2]!;
const ws = join(root, 'ws');
const home = join(root, 'home');
const keelHome = join(home, '.keel');
const steps: Record<string, { markers: string[]; result: unknown }> = {};
const markers = () => readdirSync(join(root, 'markers')).sort();

function sh(script: string, cwd: string): void {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fixture script failed: ${r.stderr}`);
}

async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  let result: unknown;
  try {
    result = await run();
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
  }
  steps[name] = { markers: markers(), result };
  for (const m of steps[name].markers) rmSync(join(root, 'markers', m));
}

async function main(): Promise<void> {
  await mkdir(ws, { recursive: true });
  await mkdir(keelHome, { recursive: true });
  const v = await gitVectors(root);
  sh('git init -q -b main', ws);
  sh(v.plant('ws'), ws);
  const store = new SnapshotRepo({ dir: join(keelHome, 'snap'), workTree: ws, maxFileBytes: 1 << 20 });
  await step('snapshot before', async () => (await store.snapshot()).tree.length);
  const sandbox = new CommandSandbox({ mode: 'on', folders: [ws], home, keelHome });
  await step('sandboxed command', async () => {
    const start = await sandbox.start({ cwd: ws, network: false });
    try {
      const r = spawnSync(start.prefix[0]!, [...start.prefix.slice(1), '/bin/sh', '-c', `git init -q -b main sub && cd sub && ${v.plant('nested')}`], { cwd: ws, encoding: 'utf8', env: { ...process.env, HOME: home } });
      return r.status;
    } finally {
      await start.release();
    }
  });
  await step('snapshot after', async () => (await store.snapshot()).nested);
  sh("printf 'x\\n' >> sub/a.txt", ws);
  await step('snapshot again', async () => (await store.snapshot()).delta?.map((d) => d.path));
  const nested = new SnapshotRepo({ dir: join(keelHome, 'snap-sub'), workTree: join(ws, 'sub'), maxFileBytes: 1 << 20 });
  await step('nested snapshot', async () => (await nested.snapshot()).tree.length);
  await step('context', async () => {
    const s = await takeGitSnapshot(ws);
    return s.kind === 'repo' ? s.status : s;
  });
  await step('mention', async () => (await expandGitDiff(ws)).ok);
  await step('worktree', async () => {
    const wt = await createWorktree({ dir: ws, root: join(root, 'worktrees'), name: 'w1' });
    sh("printf 'agent\\n' >> a.txt", wt.path);
    const changes = (await worktreeChanges(wt)).map((c) => c.path);
    return { changes, removed: await removeWorktreeFolder(wt, { deleteBranch: true, confirm: async () => true }) };
  });
  process.stdout.write(`${JSON.stringify({ uid: process.getuid?.(), steps })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
