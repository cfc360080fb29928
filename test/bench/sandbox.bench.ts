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

async function benchWorkspace(): Promise<State> {
  const found = await detectSandbox();
  if (!found.available) throw new Error(`no OS sandbox here: ${found.reason}`);
  const dir = await realpath(await mkdtemp(join('/var/tmp', 'keel-sandbox-bench-')));
  await mkdir(join(dir, '.git', 'hooks'), { recursive: true });
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  await mkdir(join(dir, 'src'), { recursive: true });
  for (let i = 0; i < 200; i++) await writeFile(join(dir, 'src', `f${i}.ts`), 'export {};\n');
  const sandbox = new CommandSandbox({ mode: 'auto', folders: [dir], home: homedir(), keelHome: join(homedir(), '.keel') });
  return { dir, sandbox };
}

/**
 * What the sandbox adds to one command: `sh -c true` run 50 times plain and 50 times the
 * way the bash tool runs it sandboxed (layout, placeholders, bwrap, cleanup); the
 * difference of the medians.
 */
const perCommand: Bench<State> = {
  name: 'added time per command (median of `true` x50, bubblewrap vs plain)',
  target: '< 30 ms',
  limit: 30,
  runs: 3,
  setup: benchWorkspace,
  async run({ dir, sandbox }) {
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
  },
  teardown: ({ dir }) => rm(dir, { recursive: true, force: true }),
};

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
    const state = await benchWorkspace();
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
  teardown: ({ dir }) => rm(dir, { recursive: true, force: true }),
};

export const suite: BenchSuite = { name: 'sandbox', benches: [perCommand, seccompCost] };
