import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isGoneOrForbidden } from '../goneErrors';
import type { LayoutPath } from './sandboxTypes';

/**
 * Folders in the home where container tools keep their daemons' sockets (Docker Desktop,
 * Colima, Rancher Desktop, Lima, OrbStack, Podman machines): hidden whole.
 */
const homeSocketDirs = ['.docker/run', '.colima', '.rd', '.lima', '.orbstack', '.local/share/containers/podman/machine'];

/** The system's socket folders, walked this deep for sockets to cover. */
const runRoots = ['/run', '/var/run'];
const runDepth = 3;
/** Entries the walk reads at most; past it, what was found so far is covered (the seccomp filter is the guard). */
const runBudget = 5_000;

export interface DaemonSocketOptions {
  home: string;
  /** The session's runtime folder ($XDG_RUNTIME_DIR): hidden whole. */
  runtimeDir?: string;
}

/**
 * Where programs on this machine listen on Unix sockets, covered by something empty in the
 * sandbox. A second layer: the seccomp filter already refuses every Unix socket; this is
 * what still holds where the filter cannot be loaded. Each socket file under /run is covered
 * by itself (the folders also hold what DNS resolution reads, /run/systemd/resolve), the
 * per-user folders whole. /run/user is left to secretPaths, which hides the person's own.
 */
export async function daemonSocketPaths(opts: DaemonSocketOptions): Promise<LayoutPath[]> {
  const out: LayoutPath[] = [];
  for (const dir of [...homeSocketDirs.map((d) => join(opts.home, d)), ...(opts.runtimeDir ? [opts.runtimeDir] : [])]) {
    if ((await kindOf(dir)) === 'dir') out.push({ path: dir, kind: 'dir' });
  }
  const budget = { left: runBudget };
  for (const root of runRoots) {
    // /var/run is a link to /run nearly everywhere: walked once, through its real name.
    if ((await kindOf(root)) === 'dir') await collectSockets(root, runDepth, budget, out);
  }
  return out;
}

async function collectSockets(dir: string, depth: number, budget: { left: number }, out: LayoutPath[]): Promise<void> {
  if (dir === '/run/user') return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isGoneOrForbidden(err)) return;
    throw err;
  }
  for (const entry of entries) {
    if (--budget.left < 0) return;
    const path = join(dir, entry.name);
    if (entry.isSocket()) out.push({ path, kind: 'file' });
    else if (entry.isDirectory() && depth > 1) await collectSockets(path, depth - 1, budget, out);
  }
}

async function kindOf(path: string): Promise<'dir' | 'other' | undefined> {
  try {
    const info = await lstat(path);
    return info.isDirectory() ? 'dir' : 'other';
  } catch (err) {
    if (isGoneOrForbidden(err)) return undefined;
    throw err;
  }
}
