import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';

const TOKENS = 5000;

export interface State {
  server: ServerProcess;
  dir: string;
}

/** How `keel run` reaches its model: the flags, and the environment (keys, a config home) besides the bench's own. */
export interface ModelSetup {
  args: string[];
  env?: Record<string, string>;
}

const openAiFlags = (s: State): ModelSetup => ({ args: ['--base-url', s.server.baseURL, '--model', 'scripted-model', '--api-key', 'bench'] });

let built: Promise<void> | undefined;
/** The CLI as it ships: `dist/cli.js` from the production build. */
function buildCli(): Promise<void> {
  built ??= new Promise((resolve, reject) => {
    const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status === 0) resolve();
    else reject(new Error(`the production build failed: ${r.stderr.toString()}`));
  });
  return built;
}

export async function setup(): Promise<State> {
  await buildCli();
  const server = await spawnScriptedServer();
  return { server, dir: mkdtempSync(join(tmpdir(), 'keel-cli-bench-')) };
}

export function teardown(state: State): void {
  state.server.close();
  rmSync(state.dir, { recursive: true, force: true });
}

/**
 * CPU seconds (user + system, the child's own process.cpuUsage at exit, so from its very
 * start to its end) of one whole `keel run` process whose model answers with `tokens`
 * tokens, one per chunk. stdout is a pipe that this process drains.
 */
export async function runCpu(state: State, tokens: number, model: ModelSetup = openAiFlags(state)): Promise<number> {
  await state.server.load({ turns: [], fallback: { tokens, chunkSize: 1 } });
  const cpuFile = join(state.dir, 'cpu.txt');
  rmSync(cpuFile, { force: true });
  const args = ['--require', join(process.cwd(), 'test/bench/cpuReport.cjs'), 'dist/cli.js', 'run', ...model.args, '--cwd', state.dir, 'stream please'];
  const env = { PATH: process.env.PATH, HOME: state.dir, KEEL_HOME: join(state.dir, 'home'), KEEL_BENCH_CPU_FILE: cpuFile, ...model.env };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let chars = 0;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (chars += d.length));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || chars < tokens) throw new Error(`keel run failed (${code}, ${chars} chars): ${stderr}`);
  return Number(readFileSync(cpuFile, 'utf8')) / 1e6;
}

const bench = (name: string, target: string, limit: number, unit: string, run: (s: State) => Promise<number>): Bench<State> => ({
  name,
  target,
  limit,
  unit,
  runs: 9,
  setup,
  run,
  teardown,
});

/**
 * The whole CLI process, as people compare agent CLIs: CPU per 1,000 streamed tokens is the
 * difference between a 5,000-token and a 1-token answer (run back to back, so both see the
 * same machine load), which leaves out startup; startup is the 1-token run alone.
 */
export const suite: BenchSuite = {
  name: 'cli',
  benches: [
    bench('`keel run` whole-process CPU per 1,000 streamed tokens', '< 10 ms', 10, 'ms', async (s) => {
      const long = await runCpu(s, TOKENS);
      const short = await runCpu(s, 1);
      return ((long - short) * 1000) / (TOKENS / 1000);
    }),
    bench('`keel run` startup CPU (a 1-token answer, whole process)', '< 0.25 s', 0.25, 's', (s) => runCpu(s, 1)),
  ],
};
