import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectInfoCache, describeProjects } from '../../src/core/workspace/projectInfo';
import { Workspace } from '../../src/core/workspace/workspace';
import type { Bench, BenchSuite } from './benchTypes';

// What multi-root adds to every request: describing the projects for the model's context
// (type and branch of each folder), and resolving tool paths against the folder set.

interface Env {
  dir: string;
  ws: Workspace;
  cache: ProjectInfoCache;
}

const FOLDERS = 5;
const REPEAT = 100;

async function makeEnv(): Promise<Env> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'keel-bench-multiroot-')));
  const folders: { path: string }[] = [];
  for (let i = 0; i < FOLDERS; i++) {
    const path = join(dir, `p${i}`);
    await mkdir(join(path, '.git'), { recursive: true });
    await mkdir(join(path, 'src'), { recursive: true });
    await writeFile(join(path, '.git', 'HEAD'), `ref: refs/heads/branch-${i}\n`);
    await writeFile(join(path, 'package.json'), JSON.stringify({ name: `p${i}`, devDependencies: { typescript: '5' } }));
    await writeFile(join(path, 'src', 'index.ts'), 'export {};\n');
    folders.push({ path });
  }
  const ws = await Workspace.create(folders);
  return { dir, ws, cache: new ProjectInfoCache() };
}

async function cleanup(env: Env): Promise<void> {
  await rm(env.dir, { recursive: true, force: true });
}

const benches: Bench<Env>[] = [
  {
    name: `describe ${FOLDERS} projects, uncached (type + branch), x${REPEAT}, per call`,
    target: '< 5 ms',
    limit: 5,
    setup: makeEnv,
    async run(env) {
      const start = performance.now();
      for (let i = 0; i < REPEAT; i++) await describeProjects(env.ws);
      return (performance.now() - start) / REPEAT;
    },
    teardown: cleanup,
  },
  {
    name: `describe ${FOLDERS} projects, cached by stamps (each request), x${REPEAT}, per call`,
    target: '< 1 ms',
    limit: 1,
    async setup() {
      const env = await makeEnv();
      await env.cache.describe(env.ws);
      return env;
    },
    async run(env) {
      const start = performance.now();
      for (let i = 0; i < REPEAT; i++) await env.cache.describe(env.ws);
      return (performance.now() - start) / REPEAT;
    },
    teardown: cleanup,
  },
  {
    name: `reference: resolve a relative path in the current project, x${REPEAT}, per call`,
    target: 'reference',
    limit: Number.POSITIVE_INFINITY,
    setup: makeEnv,
    async run(env) {
      const start = performance.now();
      for (let i = 0; i < REPEAT; i++) await env.ws.resolve('src/index.ts');
      return (performance.now() - start) / REPEAT;
    },
    teardown: cleanup,
  },
  {
    name: `resolve a folder-prefixed path (ambiguity check included), x${REPEAT}, per call`,
    target: '< 0.5 ms',
    limit: 0.5,
    setup: makeEnv,
    async run(env) {
      const start = performance.now();
      for (let i = 0; i < REPEAT; i++) await env.ws.resolve(`p${i % FOLDERS}/src/index.ts`);
      return (performance.now() - start) / REPEAT;
    },
    teardown: cleanup,
  },
];

export const suite: BenchSuite = { name: 'multiRoot', benches };
