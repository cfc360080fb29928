import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { Session } from '../../../src/core/session/session';
import { CommandSnapshots, snapshotDir, type CommandOutcome } from '../../../src/core/snapshots/commandSnapshots';
import { FileRestore } from '../../../src/core/snapshots/fileRestore';
import { sandbox, TempDirs, type Sandbox } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

interface Env extends Sandbox {
  session: Session;
  snapshots: CommandSnapshots;
  restore: FileRestore;
  /** Snapshots around `change`, as around a command. */
  command(id: string, change: () => void): Promise<CommandOutcome>;
}

function setup(opts: { maxFileBytes?: number; capBytes?: number } = {}): Env {
  const box = sandbox(dirs);
  const root = realpathSync(box.root);
  const session = box.store.create();
  const snapshots = new CommandSnapshots({
    session,
    folders: [{ name: 'app', path: root }],
    display: (p) => p.slice(root.length + 1),
    maxFileBytes: opts.maxFileBytes ?? 5 * 1024 * 1024,
    capBytes: opts.capBytes ?? 200 * 1024 * 1024,
    log: () => undefined,
  });
  const restore = new FileRestore({ session, host: createFsHost(), snapshots });
  return {
    ...box,
    root,
    session,
    snapshots,
    restore,
    async command(id, change) {
      const bracket = await snapshots.begin(id);
      change();
      return bracket.end();
    },
  };
}

/** Text no compression shrinks much: each call gives different content. */
function noise(bytes: number, seed: number): string {
  let x = seed * 2654435761;
  let out = '';
  while (out.length < bytes) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += x.toString(36);
  }
  return out.slice(0, bytes);
}

describe('bounded snapshots', () => {
  it('records large and binary files by hash only and names them as not restorable', async () => {
    const env = setup({ maxFileBytes: 4096 });
    const big = join(env.root, 'big.log');
    const bin = join(env.root, 'image.bin');
    writeFileSync(big, noise(10_000, 1));
    writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    writeFileSync(join(env.root, 'small.txt'), 'small\n');
    const outcome = await env.command('call-1', () => {
      writeFileSync(big, noise(10_000, 2));
      writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]));
      writeFileSync(join(env.root, 'small.txt'), 'changed\n');
    });
    expect(outcome.changes.map((c) => [c.displayPath, c.kind, c.unkept]).sort()).toEqual([
      ['big.log', 'modified', 'large'],
      ['image.bin', 'modified', 'binary'],
      ['small.txt', 'modified', undefined],
    ]);
    const undone = await env.restore.undoCall('call-1');
    expect(undone.status).toBe('reverted');
    expect(undone.message).toMatch(/big\.log: it is larger than the snapshot size limit/);
    expect(undone.message).toMatch(/image\.bin: it is a binary file/);
    expect(readFileSync(join(env.root, 'small.txt'), 'utf8')).toBe('small\n');
    // Neither large nor binary content is kept in the store.
    const git = join(snapshotDir(env.session.path));
    const kept = execFileSync('du', ['-sb', git], { encoding: 'utf8' });
    expect(Number(kept.split('\t')[0])).toBeLessThan(200_000);
  });

  it('a binary file first met in an earlier snapshot is still named as binary when a later command deletes it', async () => {
    const env = setup();
    const bin = join(env.root, 'data.bin');
    writeFileSync(bin, Buffer.from([1, 0, 2, 0, 3]));
    await env.command('call-1', () => writeFileSync(join(env.root, 'other.txt'), 'x\n'));
    const outcome = await env.command('call-2', () => execFileSync('rm', [bin]));
    expect(outcome.changes.map((c) => [c.displayPath, c.kind, c.unkept])).toEqual([['data.bin', 'deleted', 'binary']]);
  });

  it('a folder\u2019s first snapshot of many files keeps text and drops large and binary content', async () => {
    const env = setup({ maxFileBytes: 4096 });
    for (let i = 0; i < 100; i++) writeFileSync(join(env.root, `f${i}.txt`), `file ${i}\n`);
    writeFileSync(join(env.root, 'big.log'), noise(10_000, 5));
    writeFileSync(join(env.root, 'blob.bin'), Buffer.from([7, 0, 7]));
    const outcome = await env.command('call-1', () => {
      for (const name of ['big.log', 'blob.bin', 'f1.txt']) execFileSync('rm', [join(env.root, name)]);
    });
    expect(outcome.changes.map((c) => [c.displayPath, c.unkept]).sort()).toEqual([
      ['big.log', 'large'],
      ['blob.bin', 'binary'],
      ['f1.txt', undefined],
    ]);
    const undone = await env.restore.undoCall('call-1');
    expect(readFileSync(join(env.root, 'f1.txt'), 'utf8')).toBe('file 1\n');
    expect(undone.message).toMatch(/Not put back:[\s\S]*big\.log[\s\S]*blob\.bin|Not put back:[\s\S]*blob\.bin[\s\S]*big\.log/);
  });

  it('a first snapshot stores its files in one pack, without the content of large and binary files', async () => {
    const env = setup({ maxFileBytes: 4096 });
    for (let i = 0; i < 300; i++) writeFileSync(join(env.root, `f${i}.txt`), `file ${i}\n`);
    writeFileSync(join(env.root, 'empty.txt'), '');
    writeFileSync(join(env.root, 'big.log'), noise(10_000, 7));
    writeFileSync(join(env.root, 'blob.bin'), Buffer.from([7, 0, 7, 0]));
    const outcome = await env.command('call-1', () => {
      for (const name of ['big.log', 'blob.bin', 'empty.txt', 'f7.txt']) execFileSync('rm', [join(env.root, name)]);
    });
    const gitDir = join(snapshotDir(env.session.path), outcome.records[0]!.store, 'git');
    const objects = execFileSync('find', [join(gitDir, 'objects'), '-type', 'f', '-path', '*/objects/??/*'], { encoding: 'utf8' });
    // Not a loose object per file: the first snapshot's files, tree and empty blob are in a pack
    // (what is loose is the after-snapshot's new tree).
    const inStore = (oid: string) => {
      try {
        execFileSync('git', ['cat-file', '-e', oid], { env: { ...process.env, GIT_DIR: gitDir }, stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    };
    expect(objects.split('\n').filter(Boolean).length).toBeLessThan(5);
    const byPath = new Map(outcome.changes.map((c) => [c.displayPath, c]));
    expect(inStore(byPath.get('f7.txt')!.before!.oid)).toBe(true);
    expect(inStore(byPath.get('empty.txt')!.before!.oid)).toBe(true);
    expect(inStore(byPath.get('big.log')!.before!.oid)).toBe(false);
    expect(inStore(byPath.get('blob.bin')!.before!.oid)).toBe(false);
    expect(byPath.get('big.log')!.unkept).toBe('large');
    expect(byPath.get('blob.bin')!.unkept).toBe('binary');
    await env.restore.undoCall('call-1');
    expect(readFileSync(join(env.root, 'f7.txt'), 'utf8')).toBe('file 7\n');
    expect(readFileSync(join(env.root, 'empty.txt'), 'utf8')).toBe('');
  });

  it('a binary file the person committed stays restorable: its content is in their repository', async () => {
    const env = setup();
    const bin = join(env.root, 'logo.png');
    writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    execFileSync('git', ['init', '-q'], { cwd: env.root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'x', '--allow-empty'], { cwd: env.root });
    execFileSync('git', ['add', 'logo.png'], { cwd: env.root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'logo'], { cwd: env.root });
    const outcome = await env.command('call-1', () => execFileSync('rm', [bin]));
    expect(outcome.changes).toMatchObject([{ displayPath: 'logo.png', kind: 'deleted' }]);
    expect(outcome.changes[0]!.unkept).toBeUndefined();
    expect((await env.restore.undoCall('call-1')).status).toBe('reverted');
    expect(readFileSync(bin)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  });

  it('past the cap the oldest snapshots are dropped, the person is told, and newer ones still restore', async () => {
    const env = setup({ capBytes: 60 * 1024 });
    const file = join(env.root, 'data.txt');
    writeFileSync(file, noise(30_000, 0));
    const outcomes: CommandOutcome[] = [];
    for (let i = 1; i <= 4; i++) outcomes.push(await env.command(`call-${i}`, () => writeFileSync(file, noise(30_000, i))));
    const warned = outcomes.find((o) => o.warning);
    expect(warned?.warning).toMatch(/limit: the earliest \d+ command snapshot\(s\) were dropped/);
    const oldest = await env.restore.undoChange(outcomes[0]!.changes[0]!.id, { force: true });
    expect(oldest.message).toMatch(/dropped with the oldest snapshots/);
    const newest = await env.restore.undoCall('call-4');
    expect(newest.status).toBe('reverted');
    expect(readFileSync(file, 'utf8')).toBe(noise(30_000, 3));
  });

  it('deleting the conversation deletes its snapshots', async () => {
    const env = setup();
    writeFileSync(join(env.root, 'a.txt'), 'a\n');
    await env.command('call-1', () => writeFileSync(join(env.root, 'a.txt'), 'b\n'));
    const store = snapshotDir(env.session.path);
    expect(existsSync(store)).toBe(true);
    env.session.close();
    env.store.delete(env.session.id);
    expect(existsSync(store)).toBe(false);
  });
});
