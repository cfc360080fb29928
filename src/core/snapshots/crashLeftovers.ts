import { open, readdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runGit, type GitEnv } from './gitRunner';
import { ownerMayBeLive } from '../processOwner';

/**
 * What a Keel process killed mid-snapshot (SIGKILL, a crashed extension host) leaves in its
 * private store: git's `index.lock` (which makes every later `git add` of the store fail),
 * half-written temporary packs, a pack without its index, and an index whose entries may name
 * objects that never reached the store.
 *
 * Why a lock there can be called stale: a store belongs to one conversation, and Keel writes
 * it only from the process that holds that conversation's session lock (a conversation open
 * elsewhere is read-only and takes no snapshots). Inside that process every write to a store
 * (snapshots, pruning) goes through `CommandSnapshots.serial`, and this check runs once per
 * store and process, before its first git command. So a lock met here was left by an earlier
 * process, unless that process is still alive: the `busy` marker written around every write
 * names it, and a live owner (a conversation taken over with --force while the other window
 * still runs) means nothing is touched. A git child can outlive a killed Keel for a moment,
 * still holding the lock: where /proc shows open files (Linux), a lock some process still
 * has open is not touched either.
 */

const busyFile = 'busy';

interface Owner {
  pid: number;
  hostname: string;
}

/** Marks the store as being written by this process until `done()`. */
export async function markBusy(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, busyFile);
  await writeFile(path, JSON.stringify({ pid: process.pid, hostname: hostname() } satisfies Owner));
  return () => rm(path, { force: true });
}

export type Recovery =
  | { state: 'clean' }
  /** Another live process is writing this store: nothing was touched. */
  | { state: 'in-use'; by: string }
  /** Leftovers of a killed snapshot were removed; `reread` index entries whose objects were missing will be read from disk again. */
  | { state: 'recovered'; removed: string[]; reread: number };

/**
 * Before a store's first git command in this process: clears what a killed snapshot left.
 * `dropped`: blobs whose content is not kept on purpose (their absence is no damage).
 */
export async function recoverLeftovers(env: GitEnv, dir: string, dropped: (oid: string) => Promise<unknown>): Promise<Recovery> {

  const objectsDir = join(env.gitDir, 'objects');
  const owner = await readOwner(join(dir, busyFile));
  if (owner && ownerMayBeLive(owner)) return { state: 'in-use', by: `Keel process ${owner.pid}${owner.hostname === hostname() ? '' : ` on ${owner.hostname}`}` };
  const locks = [...(await matching(dir, (n) => n.endsWith('.lock'))), ...(await matching(env.gitDir, (n) => n.endsWith('.lock'))), ...(await matching(join(objectsDir, 'info'), (n) => n.endsWith('.lock')))];
  for (const lock of locks) if (await heldOpen(lock)) return { state: 'in-use', by: 'a process that still has its index.lock open' };
  const crashed = owner !== undefined;
  const packDir = join(objectsDir, 'pack');
  const leftovers = [...locks, ...(await matching(packDir, (n) => n.startsWith('tmp_'))), ...(await matching(objectsDir, (n) => n.startsWith('tmp_objdir')))];
  if (!crashed && leftovers.length === 0) return { state: 'clean' };
  leftovers.push(...(await unusablePacks(packDir)));
  for (const path of leftovers) await rm(path, { recursive: true, force: true });
  const reread = await forgetMissing(env, dropped);
  await rm(join(dir, busyFile), { force: true });
  return { state: 'recovered', removed: leftovers, reread };
}

/**
 * Packs git would refuse to open (no index, or a pack whose trailing checksum is not the one
 * its index names: cut short) and the index files of packs that are gone. Their objects are
 * unreadable either way; removing them lets `forgetMissing` read those files again.
 */
async function unusablePacks(packDir: string): Promise<string[]> {
  const names = await readdir(packDir).catch(() => [] as string[]);
  const bad: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.pack') && !name.endsWith('.idx')) continue;
    const base = join(packDir, name.slice(0, name.lastIndexOf('.')));
    if (name.endsWith('.idx')) {
      if (!names.includes(`${name.slice(0, -4)}.pack`)) bad.push(join(packDir, name));
      continue;
    }
    if (!names.includes(`${name.slice(0, -5)}.idx`) || !(await checksumsAgree(base))) {
      for (const ext of ['.idx', '.pack', '.rev', '.bitmap', '.keep']) if (names.includes(`${name.slice(0, -5)}${ext}`)) bad.push(`${base}${ext}`);
    }
  }
  return bad;
}

/** A pack ends with its own SHA-1, which its index repeats 40 bytes from its end. */
async function checksumsAgree(base: string): Promise<boolean> {
  const tail = async (path: string, from: number): Promise<Buffer | undefined> => {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size < from) return undefined;
      const buf = Buffer.alloc(20);
      await file.read(buf, 0, 20, size - from);
      return buf;
    } finally {
      await file.close();
    }
  };
  const [pack, idx] = await Promise.all([tail(`${base}.pack`, 20), tail(`${base}.idx`, 40)]);
  return pack !== undefined && idx !== undefined && pack.equals(idx);
}

/**
 * Index entries whose objects the store does not have (the killed process never wrote them)
 * would otherwise stay "unchanged" in every later snapshot, pointing at nothing: they are
 * taken out of Keel's index, so the next `git add` reads those files again.
 */
async function forgetMissing(env: GitEnv, dropped: (oid: string) => Promise<unknown>): Promise<number> {
  let listing: string;
  try {
    listing = (await runGit(env, ['ls-files', '-s', '-z'])).toString('utf8');
  } catch {
    // An index git cannot read at all goes whole: the next snapshot reads every file.
    await rm(env.indexFile, { force: true });
    return -1;
  }
  const byOid = new Map<string, string[]>();
  for (const entry of listing.split('\0')) {
    if (!entry || entry.startsWith('160000 ')) continue;
    const tab = entry.indexOf('\t');
    const oid = entry.slice(7, 47);
    byOid.set(oid, [...(byOid.get(oid) ?? []), entry.slice(tab + 1)]);
  }
  if (byOid.size === 0) return 0;
  const out = (await runGit(env, ['cat-file', '--batch-check=%(objectname)'], { input: `${[...byOid.keys()].join('\n')}\n` })).toString('utf8');
  const paths: string[] = [];
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]{40}) missing$/.exec(line);
    if (m && !(await dropped(m[1]!))) paths.push(...byOid.get(m[1]!)!);
  }
  if (paths.length > 0) await runGit(env, ['update-index', '--force-remove', '-z', '--stdin'], { input: `${paths.join('\0')}\0` });
  return paths.length;
}

async function matching(folder: string, test: (name: string) => boolean): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter(test).map((n) => join(folder, n));
}

async function readOwner(path: string): Promise<Owner | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Owner>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string') return { pid: parsed.pid, hostname: parsed.hostname };
  } catch {
    // Cut short by the crash itself: its writer is gone.
  }
  return { pid: 0, hostname: hostname() };
}

/** Whether a live process has this file open (Linux's /proc; elsewhere unknown, taken as no). */
async function heldOpen(path: string): Promise<boolean> {
  const pids = await readdir('/proc').catch(() => [] as string[]);
  // /proc names the file by its real path.
  const target = await realpath(path).catch(() => undefined);
  if (!target) return false;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await readdir(join('/proc', pid, 'fd')).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(join('/proc', pid, 'fd', fd)).catch(() => '');
      if (link === target) return true;
    }
  }
  return false;
}
