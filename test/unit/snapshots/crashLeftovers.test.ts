import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, realpathSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { Session } from '../../../src/core/session/session';
import { CommandSnapshots, snapshotDir, storeName, type CommandOutcome } from '../../../src/core/snapshots/commandSnapshots';
import { FileRestore } from '../../../src/core/snapshots/fileRestore';
import { SnapshotRepo } from '../../../src/core/snapshots/snapshotRepo';
import { sandbox, TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** What one Keel process has of a conversation: its own snapshot stores and restore, over the same session. */
function keelProcess(session: Session, root: string) {
  const logged: string[] = [];
  const snapshots = new CommandSnapshots({
    session,
    folders: [{ name: 'app', path: root }],
    display: (p) => p.slice(root.length + 1),
    maxFileBytes: 5 << 20,
    capBytes: 200 << 20,
    log: (_level, message) => logged.push(message),
  });
  const restore = new FileRestore({ session, host: createFsHost(), snapshots });
  return {
    logged,
    restore,
    async command(id: string, change: () => void): Promise<CommandOutcome> {
      const bracket = await snapshots.begin(id);
      change();
      return bracket.end();
    },
  };
}

function setup() {
  const box = sandbox(dirs);
  const root = realpathSync(box.root);
  writeFileSync(join(root, 'a.txt'), 'one\n');
  writeFileSync(join(root, 'b.txt'), Buffer.from('\ufeffb line\r\nsecond\r\n'));
  for (let i = 0; i < 40; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
  // Older than the store's index, so git trusts its stat cache for them instead of reading them again.
  const anHourAgo = new Date(Date.now() - 3600_000);
  for (const name of readdirSync(root)) utimesSync(join(root, name), anHourAgo, anHourAgo);
  const session = box.store.create();
  const store = join(snapshotDir(session.path), storeName(root));
  return { root, session, store, gitEnv: { GIT_DIR: join(store, 'git'), GIT_INDEX_FILE: join(store, 'index'), GIT_WORK_TREE: root } };
}

/** A `git add` into the store held inside it (after taking the index lock) by an fsmonitor hook, as a git child outliving a killed Keel would be. */
async function heldGitAdd(store: string, root: string, gitEnv: Record<string, string>) {
  const hook = join(store, '..', 'hold.sh');
  writeFileSync(hook, '#!/bin/sh\necho entered >&2\nexec sleep 600\n');
  chmodSync(hook, 0o755);
  const git = spawn('git', ['-c', `core.fsmonitor=${hook}`, 'add', '-A', '-v', '--', '.'], { cwd: root, env: { ...process.env, ...gitEnv }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    git.stderr.on('data', (c: Buffer) => (c.toString().includes('entered') ? resolve() : undefined));
    git.on('exit', () => reject(new Error('git add ended before it was killed')));
  });
  const exited = new Promise((resolve) => git.on('exit', resolve));
  return {
    pid: git.pid!,
    /** SIGKILL to git and its hook; resolves with the signal's exit code (null). */
    async kill() {
      process.kill(-git.pid!, 'SIGKILL');
      return exited;
    },
  };
}

/** A pid that no process has any more. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('a snapshot store after Keel was killed mid-snapshot', () => {
  it('a git add killed with SIGKILL leaves index.lock; the next process clears it, records the next command and undo puts back its bytes', async () => {
    const { root, session, store, gitEnv } = setup();
    const first = keelProcess(session, root);
    expect((await first.command('call-1', () => writeFileSync(join(root, 'a.txt'), 'two\n'))).changes.map((c) => c.displayPath)).toEqual(['a.txt']);

    const git = await heldGitAdd(store, root, gitEnv);
    // The Keel process that was writing the store is the one that dies.
    writeFileSync(join(store, 'busy'), JSON.stringify({ pid: git.pid, hostname: hostname() }));
    expect(await git.kill()).toBe(null);
    expect(existsSync(join(store, 'index.lock'))).toBe(true);

    const packDir = join(store, 'git', 'objects', 'pack');
    const goodPacks = readdirSync(packDir).filter((n) => n.endsWith('.pack') || n.endsWith('.idx'));
    expect(goodPacks.length).toBeGreaterThan(0);

    const next = keelProcess(session, root);
    const before = readFileSync(join(root, 'b.txt'));
    const outcome = await next.command('call-2', () => writeFileSync(join(root, 'b.txt'), 'changed by the command\n'));
    expect(outcome.warning).toBeUndefined();
    expect(outcome.changes.map((c) => [c.displayPath, c.kind])).toEqual([['b.txt', 'modified']]);
    expect(existsSync(join(store, 'index.lock'))).toBe(false);
    // Whole packs are kept: only what the killed process left half-done goes.
    for (const name of goodPacks) expect(existsSync(join(packDir, name))).toBe(true);
    expect(next.logged.join('\n')).toMatch(/cleared what a stopped Keel left/);
    const undone = await next.restore.undoCall('call-2');
    expect(undone.status).toBe('reverted');
    expect(readFileSync(join(root, 'b.txt')).equals(before)).toBe(true);
    session.close();
  });

  it('killed during a folder\u2019s very first snapshot (its pack half-written): the next snapshot takes it again from scratch', async () => {
    const { root, session, store, gitEnv } = setup();
    // The store as Keel makes it, before its first snapshot: then that snapshot's git add is killed.
    await new SnapshotRepo({ dir: store, workTree: root, maxFileBytes: 5 << 20 }).hasBlob('0'.repeat(40));
    const git = await heldGitAdd(store, root, gitEnv);
    writeFileSync(join(store, 'busy'), JSON.stringify({ pid: git.pid, hostname: hostname() }));
    writeFileSync(join(store, 'git', 'objects', 'pack', 'tmp_pack_k1ll3d'), 'PACK\0\0\0\x02cut');
    expect(await git.kill()).toBe(null);
    expect(existsSync(join(store, 'index'))).toBe(false);

    const next = keelProcess(session, root);
    const before = readFileSync(join(root, 'f7.txt'));
    const outcome = await next.command('call-1', () => writeFileSync(join(root, 'f7.txt'), 'by the command\n'));
    expect(outcome.warning).toBeUndefined();
    expect(outcome.changes.map((c) => [c.displayPath, c.kind])).toEqual([['f7.txt', 'modified']]);
    expect(readdirSync(join(store, 'git', 'objects', 'pack')).filter((n) => n.startsWith('tmp_'))).toEqual([]);
    expect(await next.restore.undoCall('call-1')).toMatchObject({ status: 'reverted' });
    expect(readFileSync(join(root, 'f7.txt')).equals(before)).toBe(true);
    session.close();
  });

  it('a lock a live Keel process of the conversation holds is left alone', async () => {
    const { root, session, store } = setup();
    const first = keelProcess(session, root);
    await first.command('call-1', () => writeFileSync(join(root, 'a.txt'), 'two\n'));
    writeFileSync(join(store, 'index.lock'), '');
    // Another live process (this test's parent stands in for it) is mid-snapshot.
    writeFileSync(join(store, 'busy'), JSON.stringify({ pid: process.ppid, hostname: hostname() }));
    const next = keelProcess(session, root);
    const outcome = await next.command('call-2', () => writeFileSync(join(root, 'b.txt'), 'x\n'));
    expect(existsSync(join(store, 'index.lock'))).toBe(true);
    expect(outcome.changes).toEqual([]);
    expect(outcome.warning).toMatch(/could not record what this command changed/);
    expect(next.logged.join('\n')).toMatch(new RegExp(`being written by Keel process ${process.ppid}`));
    session.close();
  });

  it('a lock a git process still has open is left alone, though the Keel that started it is gone', async () => {
    const { root, session, store, gitEnv } = setup();
    const first = keelProcess(session, root);
    await first.command('call-1', () => writeFileSync(join(root, 'a.txt'), 'two\n'));
    const git = await heldGitAdd(store, root, gitEnv);
    writeFileSync(join(store, 'busy'), JSON.stringify({ pid: deadPid(), hostname: hostname() }));
    try {
      const next = keelProcess(session, root);
      const outcome = await next.command('call-2', () => writeFileSync(join(root, 'b.txt'), 'x\n'));
      expect(outcome.warning).toMatch(/could not record what this command changed/);
      expect(next.logged.join('\n')).toMatch(/still has its index.lock open/);
      expect(existsSync(join(store, 'index.lock'))).toBe(true);
    } finally {
      await git.kill();
    }
    session.close();
  });

  it('a pack cut short and half-written temporary packs: files are read again, and what was lost is named as not restorable, never restored wrong', async () => {
    const { root, session, store } = setup();
    const first = keelProcess(session, root);
    await first.command('call-1', () => writeFileSync(join(root, 'a.txt'), 'two\n'));
    const packDir = join(store, 'git', 'objects', 'pack');
    const packs = readdirSync(packDir).filter((n) => n.endsWith('.pack'));
    expect(packs.length).toBeGreaterThan(0);
    for (const pack of packs) truncateSync(join(packDir, pack), statSync(join(packDir, pack)).size - 25);
    writeFileSync(join(packDir, 'tmp_pack_Xy12ab'), 'PACK\0\0\0\x02half');
    writeFileSync(join(store, 'index.lock'), '');
    writeFileSync(join(store, 'busy'), JSON.stringify({ pid: deadPid(), hostname: hostname() }));

    const next = keelProcess(session, root);
    const before = readFileSync(join(root, 'f3.txt'));
    const outcome = await next.command('call-2', () => writeFileSync(join(root, 'f3.txt'), 'edited\n'));
    expect(outcome.warning).toBeUndefined();
    expect(outcome.changes.map((c) => [c.displayPath, c.kind])).toEqual([['f3.txt', 'modified']]);
    expect(readdirSync(packDir).some((n) => n.startsWith('tmp_') || packs.includes(n))).toBe(false);
    expect(await next.restore.undoCall('call-2')).toMatchObject({ status: 'reverted' });
    expect(readFileSync(join(root, 'f3.txt')).equals(before)).toBe(true);

    // call-1's earlier a.txt lived only in the pack that was cut short.
    const lost = await next.restore.undoCall('call-1');
    expect(lost.status).toBe('failed');
    expect(lost.message).toMatch(/a\.txt: its earlier content is no longer in Keel's snapshot store/);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('two\n');
    session.close();
  });
});
