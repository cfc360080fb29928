import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsHost } from '../../src/core/fsHost';
import { LlmsContext } from '../../src/core/llmsContext/llmsContext';
import { Workspace } from '../../src/core/workspace/workspace';
import type { Bench, BenchSuite } from './benchTypes';
import { writeFiftyThousandFiles } from './fiftyThousandFiles';

interface Repo {
  base: string;
  root: string;
  home: string;
  workspace: Workspace;
  warm?: LlmsContext;
}

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@e.st', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@e.st' };

/**
 * 50,000 files in a committed git repository: 50 packages × 20 folders × 50 files, an ignored
 * build folder, rules files and a README; then a few edits and untracked files.
 */
async function makeRepo(): Promise<Repo> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-bench-ctx-')));
  const root = join(base, 'repo');
  const home = join(base, 'home');
  await mkdir(home, { recursive: true });
  await writeFiftyThousandFiles(root);
  await writeFile(join(root, '.gitignore'), 'dist/\n');
  await mkdir(join(root, 'dist'), { recursive: true });
  await writeFile(join(root, 'dist', 'bundle.js'), '');
  await writeFile(join(root, 'README.md'), `# Bench repo\n\n${'Some documentation line.\n'.repeat(500)}`);
  await writeFile(join(root, 'AGENTS.md'), 'Run the tests before you finish.\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: gitEnv, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'initial');
  // As in a real checkout, the index is written after the files: otherwise every entry is
  // "racily clean" and each status re-reads all 50,000 files.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  git('status');
  await writeFile(join(root, 'packages', 'pkg1', 'mod1', 'file1.ts'), 'export const changed = true;\n');
  await writeFile(join(root, 'packages', 'pkg2', 'new.ts'), 'export {};\n');
  return { base, root, home, workspace: await Workspace.create([{ path: root }]) };
}

function fresh(repo: Repo): LlmsContext {
  return new LlmsContext({ workspace: repo.workspace, host: createFsHost(), home: repo.home });
}

async function gatherOnce(ctx: LlmsContext): Promise<void> {
  const g = await ctx.gather();
  const git = g.sections.find((s) => s.id === 'git');
  if (!git?.text.includes('pkg2/new.ts')) throw new Error(`the git section misses the untracked file:\n${git?.text}`);
  if (!g.sections.some((s) => s.id === 'structure' && s.text.includes('packages/'))) throw new Error('no directory structure');
}

const cold: Bench<Repo> = {
  name: 'gather on 50,000 files, cold (new LlmsContext: git status + log, tree, rules, README)',
  target: '< 150 ms',
  limit: 150,
  runs: 7,
  setup: makeRepo,
  async run(repo) {
    await gatherOnce(fresh(repo));
  },
  async teardown(repo) {
    await rm(repo.base, { recursive: true, force: true });
  },
};

const warm: Bench<Repo> = {
  name: 'gather on 50,000 files, warm (cache revalidated by stamps, no git process)',
  target: '< 150 ms',
  limit: 150,
  runs: 15,
  async setup() {
    const repo = await makeRepo();
    repo.warm = fresh(repo);
    await gatherOnce(repo.warm);
    return repo;
  },
  async run(repo) {
    await gatherOnce(repo.warm!);
  },
  async teardown(repo) {
    await rm(repo.base, { recursive: true, force: true });
  },
};

const afterWrite: Bench<Repo> = {
  name: 'gather on 50,000 files after a tool wrote (invalidate(): git again, tree again)',
  target: '< 150 ms',
  limit: 150,
  runs: 7,
  async setup() {
    const repo = await makeRepo();
    repo.warm = fresh(repo);
    await gatherOnce(repo.warm);
    return repo;
  },
  async run(repo) {
    repo.warm!.invalidate();
    await gatherOnce(repo.warm!);
  },
  async teardown(repo) {
    await rm(repo.base, { recursive: true, force: true });
  },
};

/** Everything but git (tree, rules, README, environment) from cold: what gathering adds to git. */
const coldWithoutGit: Bench<Repo> = {
  name: 'gather on 50,000 files, cold, git left out (tree, rules, README, environment only)',
  target: 'reference',
  limit: Number.POSITIVE_INFINITY,
  runs: 7,
  setup: makeRepo,
  async run(repo) {
    const ctx = new LlmsContext({ workspace: repo.workspace, host: createFsHost(), home: repo.home, gitSnapshot: async () => ({ kind: 'none' }) });
    const g = await ctx.gather();
    if (!g.sections.some((s) => s.id === 'structure' && s.text.includes('packages/'))) throw new Error('no directory structure');
  },
  async teardown(repo) {
    await rm(repo.base, { recursive: true, force: true });
  },
};

/** What git alone costs on the same tree: the floor for any gathering that runs it. */
const gitAlone: Bench<Repo> = {
  name: 'reference: git status --porcelain --branch alone on the same 50,000 files',
  target: 'reference',
  limit: Number.POSITIVE_INFINITY,
  runs: 7,
  setup: makeRepo,
  run(repo) {
    execFileSync('git', ['--no-optional-locks', 'status', '--porcelain=v1', '--branch'], { cwd: repo.root, stdio: 'ignore' });
  },
  async teardown(repo) {
    await rm(repo.base, { recursive: true, force: true });
  },
};

export const suite: BenchSuite = { name: 'llmsContext', benches: [cold, warm, afterWrite, coldWithoutGit, gitAlone] };
