import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionReadOnlyError } from '../../../src/core/session/sessionErrors';
import { sandbox, TempDirs, user } from './sessionFixtures';
import { bundleWorker, exited, firstLine, startWorker } from './workerProcess';

const dirs = new TempDirs();
const scriptDirs = new TempDirs();
let worker = '';
beforeAll(async () => {
  worker = await bundleWorker(scriptDirs.make('keel-session-worker-'));
  return () => scriptDirs.cleanup();
});
afterEach(() => dirs.cleanup());

function lockPathOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '.lock');
}

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('session lock', () => {
  it('opens a session held in this process read-only, with a reason, until it is closed', () => {
    const { store } = sandbox(dirs);
    const writer = store.create();
    writer.appendMessage(user('hi'));
    const second = store.open(writer.id);
    expect(second.readOnly).toBe(true);
    expect(second.readOnlyReason).toMatch(/open for writing in this window/);
    expect(second.history()).toEqual([user('hi')]);
    expect(() => second.appendMessage(user('me too'))).toThrow(SessionReadOnlyError);
    writer.close();
    expect(existsSync(lockPathOf(writer.path))).toBe(false);
    const third = store.open(writer.id);
    expect(third.readOnly).toBe(false);
    third.appendMessage(user('now me'));
    third.close();
  });

  it('records pid and hostname in the lock file', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const lock = JSON.parse(readFileSync(lockPathOf(s.path), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });
    s.close();
  });

  it('takes over a stale lock left by a process that died', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.close();
    writeFileSync(lockPathOf(s.path), JSON.stringify({ pid: deadPid(), hostname: hostname(), token: 'old', createdAt: '2020-01-01T00:00:00.000Z' }));
    const reopened = store.open(s.id);
    expect(reopened.readOnly).toBe(false);
    reopened.appendMessage(user('recovered'));
    reopened.close();
    expect(existsSync(lockPathOf(s.path))).toBe(false);
  });

  it('detects a session held by another live process, and takes it over once that process is killed', async () => {
    const { store, home, root } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('hello'));
    s.close();

    const holder = startWorker(worker, ['hold', home, root, s.id]);
    expect(await firstLine(holder)).toBe('writable');
    const blocked = store.open(s.id);
    expect(blocked.readOnly).toBe(true);
    expect(blocked.readOnlyReason).toContain(`another Keel process (pid ${holder.pid})`);
    expect(() => blocked.appendMessage(user('x'))).toThrow(/is read-only: it is open for writing in another Keel process/);

    holder.kill('SIGKILL');
    await exited(holder);
    expect(existsSync(lockPathOf(s.path))).toBe(true);
    const recovered = store.open(s.id);
    expect(recovered.readOnly).toBe(false);
    recovered.close();
  });

  it('lets another process open a session once this one closes it', async () => {
    const { store, home, root } = sandbox(dirs);
    const s = store.create();
    const child1 = startWorker(worker, ['hold', home, root, s.id]);
    expect(await firstLine(child1)).toBe('read-only');
    child1.stdin!.end();
    await exited(child1);
    s.close();
    const child2 = startWorker(worker, ['hold', home, root, s.id]);
    expect(await firstLine(child2)).toBe('writable');
    child2.stdin!.end();
    expect(await exited(child2)).toBe(0);
    expect(existsSync(lockPathOf(s.path))).toBe(false);
  });

  it('can be forced, and readOnly opens never take it', () => {
    const { store } = sandbox(dirs);
    const first = store.create();
    const viewer = store.open(first.id, { readOnly: true });
    expect(viewer.readOnlyReason).toBe('it was opened read-only');
    const forced = store.open(first.id, { force: true });
    expect(forced.readOnly).toBe(false);
    forced.appendMessage(user('mine now'));
    // The old holder closing must not remove the lock the new holder took.
    first.close();
    expect(existsSync(lockPathOf(first.path))).toBe(true);
    forced.close();
    expect(existsSync(lockPathOf(first.path))).toBe(false);
  });
});
