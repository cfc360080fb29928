import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hooks } from '../../src/core/hooks/hooks';
import { CommandSandbox } from '../../src/core/sandbox/commandSandbox';
import { shellEnv } from '../../src/core/tools/process/shellEnv';
import type { Bench, BenchSuite } from './benchTypes';

interface State {
  dir: string;
  hooks: Hooks;
}

const calls = 50;

/** A workspace and a KEEL_HOME; with `hook`, the person's settings.json holds one PreToolUse hook for Bash. */
async function setup(hook: boolean): Promise<State> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'keel-hooks-bench-')));
  const ws = join(dir, 'ws');
  const home = join(dir, 'home');
  await mkdir(ws);
  await mkdir(home);
  if (hook) await writeFile(join(home, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null' }] }] } }));
  const hooks = new Hooks({
    keelHome: home,
    userHome: join(dir, 'user'),
    folders: [ws],
    cwd: ws,
    sandbox: new CommandSandbox({ mode: 'auto', folders: [ws], home: homedir(), keelHome: home }),
    // The environment commands get, as Context gives it to the hooks.
    env: () => shellEnv(),
    log: () => undefined,
  });
  return { dir, hooks };
}

/** Median time of one PreToolUse event, over `calls` events. */
async function perEvent({ hooks }: State): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await hooks.run('PreToolUse', { tool_input: { command: 'ls' } }, new AbortController().signal, 'bash');
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const teardown = ({ dir }: State) => rm(dir, { recursive: true, force: true });

const noHooks: Bench<State> = {
  name: 'a tool call with no hooks configured (four settings files looked for)',
  target: '< 1 ms',
  limit: 1,
  runs: 5,
  setup: () => setup(false),
  run: perEvent,
  teardown,
};

const oneHook: Bench<State> = {
  name: 'a tool call with one PreToolUse hook (run in the OS sandbox, JSON on stdin)',
  target: '< 30 ms',
  limit: 30,
  runs: 3,
  setup: () => setup(true),
  run: perEvent,
  teardown,
};

export const suite: BenchSuite = { name: 'hooks', benches: [noHooks, oneHook] };
