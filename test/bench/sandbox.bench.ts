import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CommandSandbox } from '../../src/core/sandbox/commandSandbox';
import { detectSandbox } from '../../src/core/sandbox/detectSandbox';
import type { Bench, BenchSuite } from './benchTypes';

interface State {
  dir: string;
  sandbox: CommandSandbox;
}

const commands = 50;

function runOnce(argv: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * What the sandbox adds to one command: `sh -c true` run 50 times plain and 50 times the
 * way the bash tool runs it sandboxed (layout, placeholders, bwrap, cleanup); the
 * difference of the medians.
 */
/** A workspace of 200 source files and a `.git`; with `packages`, that many nested `pkg-N/sub/.vscode` folders too (each held with its parents). */
async function workspace(packages: number): Promise<State> {
  const found = await detectSandbox();
  if (!found.available) throw new Error(`no OS sandbox here: ${found.reason}`);
  const dir = await realpath(await mkdtemp(join('/var/tmp', 'keel-sandbox-bench-')));
  await mkdir(join(dir, '.git', 'hooks'), { recursive: true });
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  await mkdir(join(dir, 'src'), { recursive: true });
  for (let i = 0; i < 200; i++) await writeFile(join(dir, 'src', `f${i}.ts`), 'export {};\n');
  for (let i = 0; i < packages; i++) {
    await mkdir(join(dir, `pkg-${i}`, 'sub', '.vscode'), { recursive: true });
    await writeFile(join(dir, `pkg-${i}`, 'sub', '.vscode', 'settings.json'), '{}\n');
    await writeFile(join(dir, `pkg-${i}`, 'sub', 'AGENTS.md'), '# rules\n');
  }
  const sandbox = new CommandSandbox({ mode: 'auto', folders: [dir], home: homedir(), keelHome: join(homedir(), '.keel') });
  return { dir, sandbox };
}

const perCommand: Bench<State> = {
  name: 'added time per command (median of `true` x50, bubblewrap vs plain)',
  target: '< 30 ms',
  limit: 30,
  runs: 3,
  setup: () => workspace(0),
  run: addedTime,
  teardown: removeWorkspace,
};

/** The same with 20 nested packages holding protected paths: 40 protected paths and 40 folders held around them. */
const perCommandNested: Bench<State> = {
  name: 'added time per command, 20 nested packages with .vscode and AGENTS.md (median of `true` x50)',
  target: '< 30 ms',
  limit: 30,
  runs: 3,
  setup: () => workspace(20),
  run: addedTime,
  teardown: removeWorkspace,
};

async function removeWorkspace({ dir }: State): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

async function addedTime({ dir, sandbox }: State): Promise<number> {
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < commands; i++) {
    plain.push(await runOnce(['/bin/sh', '-c', 'true'], dir));
    const started = performance.now();
    const start = await sandbox.start({ cwd: dir, network: false });
    await runOnce([...start.prefix, '/bin/sh', '-c', 'true'], dir);
    await start.release();
    boxed.push(performance.now() - started);
  }
  return median(boxed) - median(plain);
}

export const suite: BenchSuite = { name: 'sandbox', benches: [perCommand, perCommandNested] };
