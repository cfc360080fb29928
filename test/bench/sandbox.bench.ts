import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapBackend, findBwrap } from '../../src/core/sandbox/bubblewrap';
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

/** The same with 20 nested packages holding protected paths: 40 protected paths, and 40 folders around them watched and put back after the run. */
const perCommandNested: Bench<State> = {
  name: 'added time per command, 20 nested packages with .vscode and AGENTS.md (median of `true` x50)',
  target: '< 30 ms',
  limit: 30,
  runs: 3,
  setup: () => workspace(20),
  run: addedTime,
  teardown: removeWorkspace,
};

/**
 * The same workspace for a background command or a server: the folders holding protected paths
 * are held by mounts for the whole run (40 more binds here) rather than put back after it.
 */
const perCommandNestedLongLived: Bench<State> = {
  name: 'added time per background command, 20 nested packages (folders held by mounts; median of `true` x50)',
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  runs: 3,
  setup: () => workspace(20),
  run: (state) => addedTime(state, true),
  teardown: removeWorkspace,
};

async function removeWorkspace({ dir }: State): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

async function addedTime({ dir, sandbox }: State, longLived = false): Promise<number> {
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < commands; i++) {
    plain.push(await runOnce(['/bin/sh', '-c', 'true'], dir));
    const started = performance.now();
    const start = await sandbox.start({ cwd: dir, network: false, longLived });
    await runOnce([...start.prefix, '/bin/sh', '-c', 'true'], dir);
    await start.release();
    boxed.push(performance.now() - started);
  }
  return median(boxed) - median(plain);
}

/**
 * The seccomp filter's own share: the same sandboxed `true` with the detected backend (filter
 * loaded through the `/bin/sh` launcher) and with one that has no filter; the difference of the medians.
 */
const seccompCost: Bench<State & { plain: CommandSandbox }> = {
  name: 'seccomp filter per command (median of `true` x50, with vs without)',
  target: '< 5 ms',
  limit: 5,
  runs: 3,
  async setup() {
    const state = await workspace(0);
    const bwrap = await findBwrap(process.env.PATH);
    if (!bwrap) throw new Error('bwrap is not on PATH');
    const backend = bubblewrapBackend(bwrap, undefined);
    const plain = new CommandSandbox({ mode: 'auto', folders: [state.dir], home: homedir(), keelHome: join(homedir(), '.keel'), detect: async () => ({ available: true, backend }) });
    return { ...state, plain };
  },
  async run({ dir, sandbox, plain }) {
    const without: number[] = [];
    const withFilter: number[] = [];
    for (let i = 0; i < commands; i++) {
      for (const [box, into] of [[plain, without], [sandbox, withFilter]] as const) {
        const start = await box.start({ cwd: dir, network: false });
        into.push(await runOnce([...start.prefix, '/bin/sh', '-c', 'true'], dir));
        await start.release();
      }
    }
    return median(withFilter) - median(without);
  },
  teardown: removeWorkspace,
};

export const suite: BenchSuite = { name: 'sandbox', benches: [perCommand, perCommandNested, perCommandNestedLongLived, seccompCost] };
