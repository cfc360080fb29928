import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as z from 'zod';
import { ownerMayBeLive } from '../processOwner';

const lockOwnerSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  token: z.string(),
  createdAt: z.string(),
});
export type LockOwner = z.output<typeof lockOwnerSchema>;

export type LockAttempt = { acquired: true; lock: SessionLock } | { acquired: false; owner: LockOwner };

/**
 * Marks a session as being written by one process: `<id>.lock` holds pid + hostname.
 * A lock whose pid is dead on this host is stale and taken over. This is detection for
 * two Keel windows opening the same conversation, not a mutex against hostile races.
 */
export class SessionLock {
  private held = true;

  private constructor(
    readonly path: string,
    readonly owner: LockOwner,
  ) {}

  static acquire(path: string, opts: { force?: boolean } = {}): LockAttempt {
    const owner: LockOwner = { pid: process.pid, hostname: hostname(), token: randomUUID(), createdAt: new Date().toISOString() };
    // Written aside and hard-linked into place: the lock appears atomically with its content,
    // so a reader never sees an empty lock file.
    const draft = `${path}.${owner.token}.tmp`;
    writeFileSync(draft, JSON.stringify(owner));
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        if (tryLink(draft, path)) return { acquired: true, lock: new SessionLock(path, owner) };
        const current = readLockOwner(path);
        if (current === 'missing') continue;
        if (current !== 'unreadable' && ownerMayBeLive(current) && !opts.force) return { acquired: false, owner: current };
        const stolen = takeAway(path, current === 'unreadable' ? undefined : current.token);
        if (stolen) return { acquired: false, owner: stolen };
      }
      throw new Error(`could not take the session lock ${path}: it keeps changing hands`);
    } finally {
      rmSync(draft, { force: true });
    }
  }

  /** The live owner of a lock, or undefined when there is no lock or it is stale. */
  static holder(path: string): LockOwner | undefined {
    const owner = readLockOwner(path);
    return typeof owner === 'object' && ownerMayBeLive(owner) ? owner : undefined;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Removes the lock unless someone forced it away from us in the meantime. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    const current = readLockOwner(this.path);
    if (typeof current === 'object' && current.token === this.owner.token) rmSync(this.path, { force: true });
  }
}

export function describeLockOwner(owner: LockOwner): string {
  // The person reads it (the chat's read-only notice, the CLI's error), in their language.
  if (owner.hostname !== hostname()) return l10n.t('it is open for writing in another Keel process (pid {0} on {1}) since {2}', owner.pid, owner.hostname, owner.createdAt);
  if (owner.pid === process.pid) return l10n.t('it is open for writing in this window since {0}', owner.createdAt);
  return l10n.t('it is open for writing in another Keel process (pid {0}) since {1}', owner.pid, owner.createdAt);
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function readLockOwner(path: string): LockOwner | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'unreadable';
  }
  const parsed = lockOwnerSchema.safeParse(json);
  return parsed.success ? parsed.data : 'unreadable';
}

/**
 * Moves a stale lock out of the way. Renaming (not deleting) lets us check we moved the stale
 * lock we inspected and not a fresh one another process linked in meanwhile; if we did grab a
 * fresh one, it is put back and its owner returned.
 */
function takeAway(path: string, staleToken: string | undefined): LockOwner | undefined {
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const moved = readLockOwner(aside);
  if (typeof moved === 'object' && moved.token !== staleToken && ownerMayBeLive(moved)) {
    const restored = tryLink(aside, path);
    rmSync(aside, { force: true });
    if (restored) return moved;
    // Someone else linked a lock in meanwhile: they are the owner now.
    const current = readLockOwner(path);
    return typeof current === 'object' ? current : moved;
  }
  rmSync(aside, { force: true });
  return undefined;
}
