import { spawnSync } from 'node:child_process';
import { chownSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, run } from './sandboxFixture';
import type { Ran, SandboxFixture } from './sandboxFixture';

/**
 * What a path is on the host, as the person's tools would find it: its device and inode, and
 * its content (a file's bytes, a link's target, a folder's tree with the same for each entry).
 * Two equal identities are the same file with the same content.
 */
export function hostIdentity(path: string): string {
  let info;
  try {
    info = lstatSync(path);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return 'absent';
    throw err;
  }
  const head = `${info.dev}:${info.ino}`;
  if (info.isSymbolicLink()) return `${head} -> ${readlinkSync(path)}`;
  if (info.isFile()) return `${head} ${readFileSync(path, 'utf8')}`;
  const entries = readdirSync(path).sort();
  return `${head} {${entries.map((name) => `${name}=${hostIdentity(join(path, name))}`).join(', ')}}`;
}

/** The uid and gid the unprivileged runs use. */
const nobody = 65534;

/**
 * Who a test runs the sandboxed command as: Keel's own user, and `nobody` when Keel runs as
 * root here (bubblewrap then builds the sandbox in an unprivileged user namespace).
 */
export interface SandboxUser {
  name: string;
  /** Prepares the fixture for this user (the files must be theirs to write). */
  prepare(f: SandboxFixture): void;
  /** What goes before the sandbox's own prefix to run as this user. */
  as: string[];
  /** Runs `sh -c command` in the fixture's sandbox as this user. */
  run(f: SandboxFixture, command: string): Promise<Ran>;
}

export function sandboxUsers(): SandboxUser[] {
  const self: SandboxUser = { name: 'as Keel’s own user', prepare: () => undefined, as: [], run: (f, command) => runAs(f, command, []) };
  if (process.getuid?.() !== 0) return [self];
  const as = ['setpriv', `--reuid=${nobody}`, `--regid=${nobody}`, '--clear-groups'];
  const unprivileged: SandboxUser = {
    name: 'as an unprivileged user (nobody)',
    prepare: (f) => chownTree(f.root, nobody),
    as,
    run: (f, command) => runAs(f, command, as),
  };
  return [self, unprivileged];
}

async function runAs(f: SandboxFixture, command: string, as: string[]): Promise<Ran> {
  const start = await f.sandbox.start({ cwd: f.ws, network: false });
  try {
    const ran = await run([...as, ...start.prefix, '/bin/sh', '-c', command], f.ws, { HOME: f.home, KEEL_HOME: f.keelHome });
    ran.removed = await start.release();
    ran.report = start.report;
    return ran;
  } catch (err) {
    await start.release();
    throw err;
  }
}

function chownTree(path: string, id: number): void {
  chownSync(path, id, id);
  const info = lstatSync(path);
  if (!info.isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), id);
}

/** Plain `git status` on the host, as the person would run it in the workspace afterwards. */
export function hostGitStatus(cwd: string): string {
  const ran = spawnSync('git', ['status', '--short'], { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv } });
  return `${ran.stdout}${ran.stderr}`;
}
