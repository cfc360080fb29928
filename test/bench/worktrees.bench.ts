import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createWorktree } from '../../src/core/worktrees/gitWorktree';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).toString();

interface Repo {
  dir: string;
  repo: string;
  root: string;
  n: number;
}

let shared: Repo | undefined;

/** A committed repository of 50,000 small files in 500 folders, made once for both benches. */
function bigRepo(): Repo {
  shared ??= makeBigRepo();
  return shared;
}

function makeBigRepo(): Repo {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-wt-')));
  const repo = join(dir, 'repo');
  for (let d = 0; d < 500; d++) {
    const folder = join(repo, 'src', `m${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(folder, `f${f}.ts`), `export const v${d}_${f} = ${d * 100 + f};\n`);
  }
  git(repo, 'init', '-q', '-b', 'main');
  // No background gc or maintenance: it would race the clean-up and the timings.
  git(repo, 'config', 'gc.auto', '0');
  git(repo, 'config', 'maintenance.auto', 'false');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'fixture');
  return { dir, repo, root: join(dir, 'worktrees'), n: 0 };
}

function timeGitAlone(r: Repo): number {
  const name = `raw${r.n++}`;
  const t0 = performance.now();
  git(r.repo, 'worktree', 'add', '-q', '-b', `raw/${name}`, join(r.root, name), 'HEAD');
  return performance.now() - t0;
}

const gitAlone: Bench<Repo> = {
  name: "worktree of a 50,000-file repository: git's own `git worktree add`",
  target: 'reported',
  limit: Number.POSITIVE_INFINITY,
  runs: 3,
  warmup: 0,
  setup: bigRepo,
  run: timeGitAlone,
};

/** Keel's createWorktree as a whole: git's own time plus Keel's checks (rev-parse, branch check). */
const keelTotal: Bench<Repo> = {
  name: 'worktree of a 50,000-file repository: Keel\'s createWorktree, all of it (Keel\'s share = this − git alone)',
  target: 'reported',
  limit: Number.POSITIVE_INFINITY,
  runs: 3,
  warmup: 0,
  setup: bigRepo,
  async run(r) {
    const t0 = performance.now();
    await createWorktree({ dir: r.repo, root: r.root, name: `k${r.n++}` });
    return performance.now() - t0;
  },
  teardown(r) {
    rmSync(r.dir, { recursive: true, force: true, maxRetries: 5 });
    shared = undefined;
  },
};

interface Cli {
  dir: string;
  cli: string;
  server: ServerProcess;
  repo: string;
  n: number;
}

const turnDelayMs = 1500;

function runCli(c: Cli, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [c.cli, 'run', '--cwd', c.repo, '--model', 'scripted-model', '--base-url', c.server.baseURL, `--worktree=${name}`, '--output', 'stream-json', 'Say hello'], {
      env: { PATH: process.env.PATH, HOME: c.dir, KEEL_HOME: join(c.dir, 'home'), OPENAI_API_KEY: 'bench', ...gitEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`keel run exited ${code}: ${err}`))));
  });
}

async function timeRuns(c: Cli, count: number): Promise<number> {
  await c.server.load({ turns: Array.from({ length: count }, () => ({ text: 'Hello.', delayMs: turnDelayMs })) });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: count }, () => runCli(c, `b${c.n++}`)));
  return performance.now() - t0;
}

/** Three `keel run --worktree` at once against a model that takes 1.5 s per answer, over the time of one. */
const concurrent: Bench<Cli> = {
  name: 'three concurrent worktree runs (model 1.5 s per answer) / one run, wall time',
  target: '< 1.3×',
  limit: 1.3,
  unit: '×',
  runs: 3,
  warmup: 0,
  async setup() {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-cc-')));
    const cli = join(dir, 'cli.js');
    await build({ entryPoints: [join(process.cwd(), 'src/cli/main.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node22', define: { KEEL_VERSION: '"bench"' }, logLevel: 'warning' });
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'a.ts'), 'export {};\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'fixture');
    return { dir, cli, server: await spawnScriptedServer(), repo, n: 0 };
  },
  async run(c) {
    const one = await timeRuns(c, 1);
    const three = await timeRuns(c, 3);
    return three / one;
  },
  teardown(c) {
    c.server.close();
    rmSync(c.dir, { recursive: true, force: true });
  },
};

export const suite: BenchSuite = { name: 'worktrees', benches: [gitAlone, keelTotal, concurrent] };
