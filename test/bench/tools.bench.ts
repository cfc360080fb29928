import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsHost } from '../../src/core/fsHost';
import { editTool } from '../../src/core/tools/editTool';
import { FileReadTracker } from '../../src/core/tools/fileReadTracker';
import { createGlobTool } from '../../src/core/tools/globTool';
import { createGrepTool } from '../../src/core/tools/grepTool';
import { readTool } from '../../src/core/tools/readTool';
import type { AnyTool, ToolContext } from '../../src/core/tools/tool';
import { TodoStore } from '../../src/core/tools/todoStore';
import { Workspace } from '../../src/core/workspace/workspace';
import type { Bench, BenchSuite } from './benchTypes';

interface Env {
  dir: string;
  ctx: ToolContext;
}

async function makeEnv(prefix: string): Promise<Env> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    workspace: await Workspace.create([{ path: dir }]),
    host: createFsHost(),
    reads: new FileReadTracker(),
    todos: new TodoStore(),
    toolCallId: 'bench',
  };
  return { dir, ctx };
}

async function mustSucceed(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<void> {
  const result = await tool.execute(input, ctx);
  if (result.isError) throw new Error(`${tool.name} failed: ${String(result.output)}`);
}

/** Source-like lines of varied length (about 35 characters on average). */
function codeLine(i: number): string {
  switch (i % 5) {
    case 0:
      return `function handler${i}(input) {`;
    case 1:
      return `  const value = compute(input, ${i});`;
    case 2:
      return `  if (!value) return null;`;
    case 3:
      return `  return value * ${i % 97};`;
    default:
      return '}';
  }
}

const editBench: Bench<Env & { flip: boolean }> = {
  name: 'edit on a 50,000-line file (1.2 MB; whole execute, written through fsHost)',
  target: '< 10 ms',
  limit: 10,
  runs: 15,
  warmup: 2,
  async setup() {
    const env = await makeEnv('keel-bench-edit-');
    const lines = Array.from({ length: 50_000 }, (_, i) => codeLine(i));
    lines[25_000] = '  const marker = "before";';
    await writeFile(join(env.dir, 'big.ts'), `${lines.join('\n')}\n`);
    await mustSucceed(readTool, { file_path: 'big.ts', limit: 1 }, env.ctx);
    return { ...env, flip: false };
  },
  async run(state) {
    const [from, to] = state.flip ? ['"after"', '"before"'] : ['"before"', '"after"'];
    state.flip = !state.flip;
    await mustSucceed(editTool, { file_path: 'big.ts', old_string: `const marker = ${from};`, new_string: `const marker = ${to};` }, state.ctx);
  },
  async teardown(state) {
    await rm(state.dir, { recursive: true, force: true });
  },
};

async function makeTree(): Promise<Env> {
  const env = await makeEnv('keel-bench-grep-');
  for (let d = 0; d < 100; d++) {
    const folder = join(env.dir, 'src', `module${d}`);
    await mkdir(folder, { recursive: true });
    for (let f = 0; f < 50; f++) {
      const n = d * 50 + f;
      const body = Array.from({ length: 40 }, (_, i) => codeLine(n + i));
      if (n % 100 === 0) body[20] = '  // TODO: remove the legacy path';
      await writeFile(join(folder, `file${f}.ts`), `${body.join('\n')}\n`);
    }
  }
  await writeFile(join(env.dir, '.gitignore'), 'dist/\n');
  return env;
}

const teardownTree = async (env: Env) => rm(env.dir, { recursive: true, force: true });

const grepBench = (engine: 'ripgrep' | 'js', limit: number): Bench<Env> => ({
  name: `grep a 5,000-file tree (${engine === 'ripgrep' ? 'ripgrep' : 'built-in engine'}, content mode)`,
  target: `< ${limit} ms`,
  limit,
  runs: 5,
  setup: makeTree,
  async run(env) {
    await mustSucceed(createGrepTool({ engine }), { pattern: 'TODO: remove', output_mode: 'content' }, env.ctx);
  },
  teardown: teardownTree,
});

const globBench: Bench<Env> = {
  name: 'glob **/*.ts over a 5,000-file tree (ripgrep listing)',
  target: '< 200 ms',
  limit: 200,
  runs: 5,
  setup: makeTree,
  async run(env) {
    await mustSucceed(createGlobTool({ engine: 'ripgrep' }), { pattern: '**/*.ts' }, env.ctx);
  },
  teardown: teardownTree,
};

export const suite: BenchSuite = {
  name: 'tools',
  benches: [editBench, grepBench('ripgrep', 300), grepBench('js', 500), globBench],
};
