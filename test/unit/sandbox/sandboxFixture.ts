import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { detectSandbox } from '../../../src/core/sandbox/detectSandbox';
import type { SandboxMode } from '../../../src/core/sandbox/sandboxTypes';

const fixtureParent = '/var/tmp';

export interface SandboxFixture {
  root: string;
  home: string;
  keelHome: string;
  ws: string;
  /** Outside the workspace and not a secret: must stay read-only. */
  outside: string;
  sandbox: CommandSandbox;
  dispose(): Promise<void>;
}

/** Fails loudly where the real sandbox cannot run: these tests must not pass by skipping. */
export async function requireRealSandbox(): Promise<void> {
  const found = await detectSandbox();
  if (!found.available) throw new Error(`The OS sandbox tests need a working bubblewrap on this machine: ${found.reason}`);
}

/** A temporary HOME with a fixture SSH key, a workspace that is a git repository with protected files. */
export async function sandboxFixture(mode: SandboxMode = 'auto'): Promise<SandboxFixture> {
  // Not under /tmp: the sandbox has a private /tmp, which would hide the fixture's home by accident.
  const root = await realpath(await mkdtemp(join(fixtureParent, 'keel-sandbox-')));
  const home = join(root, 'home');
  const keelHome = join(home, '.keel');
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nfixture-secret\n');
  await mkdir(keelHome, { recursive: true });
  await writeFile(join(keelHome, 'config.json'), '{"secret":"keel-home"}\n');
  await writeFile(join(root, '.env'), 'TOKEN=outside-env-secret\n');
  await mkdir(outside, { recursive: true });
  await mkdir(join(ws, '.vscode'), { recursive: true });
  await writeFile(join(ws, '.vscode', 'settings.json'), '{}\n');
  await writeFile(join(ws, 'AGENTS.md'), '# rules\n');
  await writeFile(join(ws, 'README.md'), 'hello\n');
  await git(ws, ['init', '-q']);
  await git(ws, ['add', '.']);
  await git(ws, ['commit', '-q', '-m', 'start']);
  const sandbox = new CommandSandbox({ mode, folders: [ws], home, keelHome });
  return { root, home, keelHome, ws, outside, sandbox, dispose: () => rm(root, { recursive: true, force: true }) };
}

export const gitEnv = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
};

function git(cwd: string, args: string[]): Promise<void> {
  return run(['git', ...args], cwd).then((r) => {
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.output}`);
  });
}

export interface Ran {
  code: number | null;
  output: string;
  removed: string[];
  /** What the sandbox said about the run (protected paths it undid, why it ran read-only). */
  report?: string[];
}

/** Runs argv as the person's environment would, with HOME pointing at the fixture home. */
export function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env: { ...process.env, ...gitEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, removed: [] }));
  });
}

/** `sh -c command` inside the fixture's sandbox. */
export async function runSandboxed(f: SandboxFixture, command: string, opts: { network?: boolean; cwd?: string } = {}): Promise<Ran> {
  const cwd = opts.cwd ?? f.ws;
  const start = await f.sandbox.start({ cwd, network: opts.network ?? false });
  try {
    const ran = await run([...start.prefix, '/bin/sh', '-c', command], cwd, { HOME: f.home, KEEL_HOME: f.keelHome });
    ran.removed = await start.release();
    return ran;
  } catch (err) {
    await start.release();
    throw err;
  }
}
