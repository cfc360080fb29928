import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '../../src/core/session/session';
import { SessionStore } from '../../src/core/session/sessionStore';
import { CommandSnapshots, snapshotDir } from '../../src/core/snapshots/commandSnapshots';
import type { BenchSuite } from './benchTypes';

interface Workspace {
  base: string;
  root: string;
}

/** `count` small source-like files, 100 per folder. */
function workspace(count: number, git: boolean): Workspace {
  const base = mkdtempSync(join(tmpdir(), 'keel-snap-bench-'));
  const root = join(base, 'ws');
  mkdirSync(root);
  for (let d = 0; d < count / 100; d++) {
    const dir = join(root, `pkg${d}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `mod${f}.ts`), `export const value${d}_${f} = ${d * 100 + f};\n`.repeat(8));
  }
  if (git) {
    const run = (...args: string[]) => execFileSync('git', ['-c', 'gc.auto=0', '-c', 'user.name=b', '-c', 'user.email=b@e', ...args], { cwd: root, stdio: 'ignore' });
    run('init', '-q');
    run('add', '-A');
    run('commit', '-qm', 'fixture');
  }
  return { base, root: realpathSync(root) };
}

function snapshotsFor(ws: Workspace, home: string): { session: Session; snapshots: CommandSnapshots } {
  const store = new SessionStore({ home, workspace: { root: ws.root } });
  const session = store.create();
  const snapshots = new CommandSnapshots({
    session,
    folders: [{ name: 'ws', path: ws.root }],
    display: (p) => p.slice(ws.root.length + 1),
    maxFileBytes: 5 * 1024 * 1024,
    capBytes: 200 * 1024 * 1024,
    log: () => undefined,
  });
  return { session, snapshots };
}

function bytesUnder(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

interface Warm extends Workspace {
  session: Session;
  snapshots: CommandSnapshots;
  n: number;
}

function warm(): Promise<Warm> {
  const ws = workspace(50_000, true);
  const { session, snapshots } = snapshotsFor(ws, join(ws.base, 'home'));
  // The conversation's first snapshot (its index starts from the person's): not what is measured.
  return snapshots.begin('warm-up').then(async (b) => {
    await b.end();
    return { ...ws, session, snapshots, n: 0 };
  });
}

/** A command that changes 3 files, bracketed as the bash tool does. */
async function command(state: Warm, timeEnd: boolean): Promise<number> {
  const n = state.n++;
  const bracket = await state.snapshots.begin(`call-${n}`);
  for (let i = 0; i < 3; i++) writeFileSync(join(state.root, `pkg${i}`, 'src', `mod${n % 100}.ts`), `export const changed = ${n};\n`);
  const start = performance.now();
  const outcome = await bracket.end();
  const took = performance.now() - start;
  if (outcome.changes.length !== 3) throw new Error(`expected 3 changes, got ${outcome.changes.length}`);
  return timeEnd ? took : 0;
}

function cleanup(state: { base: string; session?: Session } | undefined): void {
  state?.session?.close();
  if (state) rmSync(state.base, { recursive: true, force: true, maxRetries: 5 });
}

export const suite: BenchSuite = {
  name: 'snapshots',
  benches: [
    {
      name: 'after-snapshot + diff of a 50,000-file git repository, 3 files changed',
      target: '< 200 ms',
      limit: 200,
      runs: 9,
      setup: warm,
      run: (state: Warm) => command(state, true),
      teardown: cleanup,
    },
    {
      // Not Keel: the git processes of that after-snapshot run alone on Keel's own store, so
      // Keel's share (spawning, parsing, counting lines, the log record) is the difference.
      name: 'baseline: the same after-snapshot\'s git commands alone (add -A, write-tree, diff-tree, cat-file)',
      target: 'for scale',
      limit: 200,
      runs: 9,
      setup: warm,
      run(state: Warm): number {
        const dir = snapshotDir(state.session.path);
        const store = join(dir, readdirSync(dir)[0]!);
        const env = { ...process.env, GIT_DIR: join(store, 'git'), GIT_INDEX_FILE: join(store, 'index'), GIT_WORK_TREE: state.root, GIT_LITERAL_PATHSPECS: '1', GIT_OPTIONAL_LOCKS: '0' };
        const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: state.root, env, input, encoding: 'utf8' });
        const base = git(['write-tree', '--missing-ok']).trim();
        const n = state.n++;
        for (let i = 0; i < 3; i++) writeFileSync(join(state.root, `pkg${i}`, 'src', `mod${n % 100}.ts`), `export const changed = ${n};\n`);
        const start = performance.now();
        git(['add', '-A', '-v', '--ignore-errors', '--', '.']);
        const tree = git(['write-tree', '--missing-ok']).trim();
        const raw = git(['diff-tree', '-r', '-z', '--no-renames', '--raw', base, tree]);
        const oids = raw.split('\0').filter((p) => p.startsWith(':')).flatMap((p) => p.split(' ').slice(2, 4));
        git(['cat-file', '--batch'], `${oids.join('\n')}\n`);
        return performance.now() - start;
      },
      teardown: cleanup,
    },
    {
      // Not Keel: what git itself takes to look at the same repository, for scale on a busy machine.
      name: 'baseline: `git status` of the same repository (git alone)',
      target: 'for scale',
      limit: 200,
      runs: 9,
      setup: () => workspace(50_000, true),
      run: (state: Workspace) => {
        execFileSync('git', ['status', '--porcelain'], { cwd: state.root, stdio: 'ignore' });
      },
      teardown: cleanup,
    },
    {
      name: 'disk added by one such command (its two snapshots)',
      target: '< 1 MB',
      limit: 1024,
      unit: 'KB',
      runs: 5,
      setup: warm,
      async run(state: Warm): Promise<number> {
        const dir = snapshotDir(state.session.path);
        const before = bytesUnder(dir);
        await command(state, false);
        return (bytesUnder(dir) - before) / 1024;
      },
      teardown: cleanup,
    },
    {
      name: 'first snapshot of a 10,000-file workspace that is not a git repository',
      target: '< 2 s',
      limit: 2000,
      runs: 3,
      warmup: 0,
      setup: () => ({ ...workspace(10_000, false), homes: 0 }),
      async run(state: Workspace & { homes: number }): Promise<number> {
        const { session, snapshots } = snapshotsFor(state, join(state.base, `home${state.homes++}`));
        const start = performance.now();
        await snapshots.begin('first');
        const took = performance.now() - start;
        session.close();
        return took;
      },
      teardown: cleanup,
    },
    {
      name: 'baseline: `git add -A` of the same 10,000 files into a fresh repository (git alone)',
      target: 'for scale',
      limit: 2000,
      runs: 3,
      warmup: 0,
      setup: () => ({ ...workspace(10_000, false), homes: 0 }),
      run(state: Workspace & { homes: number }): void {
        const gitDir = join(state.base, `plain${state.homes++}`);
        const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: state.root };
        execFileSync('git', ['init', '-q', '--bare', gitDir], { stdio: 'ignore' });
        execFileSync('git', ['-c', 'core.bare=false', '-c', 'core.fsync=none', 'add', '-A'], { cwd: state.root, env, stdio: 'ignore' });
      },
      teardown: cleanup,
    },
  ],
};
