import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CommandSandbox } from '../../src/core/sandbox/commandSandbox';
import type { BenchSuite } from './benchTypes';
function runOnce(argv: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`exit ${code}`))));
  });
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
export const suite: BenchSuite = { name: 'ab', benches: [{ name: 'ab', target: 'info', limit: Infinity, runs: 1, warmup: 0, async run() {
  const dir = await realpath(await mkdtemp(join('/var/tmp', 'keel-ab-')));
  await mkdir(join(dir, '.git', 'hooks'), { recursive: true });
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  for (let i = 0; i < 20; i++) {
    await mkdir(join(dir, `pkg-${i}`, 'sub', '.vscode'), { recursive: true });
    await writeFile(join(dir, `pkg-${i}`, 'sub', '.vscode', 'settings.json'), '{}\n');
    await writeFile(join(dir, `pkg-${i}`, 'sub', 'AGENTS.md'), '# rules\n');
  }
  const sandbox = new CommandSandbox({ mode: 'auto', folders: [dir], home: homedir(), keelHome: join(homedir(), '.keel') });
  const r: Record<string, number[]> = { plain: [], short: [], mounts: [] };
  for (let i = 0; i < Number(process.env.AB_N ?? 200); i++) {
    r.plain.push(await runOnce(['/bin/sh', '-c', 'true'], dir));
    for (const [k, longLived] of [['short', false], ['mounts', true]] as const) {
      const t = performance.now();
      const s = await sandbox.start({ cwd: dir, network: false, longLived });
      await runOnce([...s.prefix, '/bin/sh', '-c', 'true'], dir);
      await s.release();
      r[k].push(performance.now() - t);
    }
  }
  const p = med(r.plain);
  console.error(`n=${r.plain.length} plain ${p.toFixed(1)} | watched+put back: +${(med(r.short) - p).toFixed(1)} ms | all held by mounts (as before): +${(med(r.mounts) - p).toFixed(1)} ms`);
  await rm(dir, { recursive: true, force: true });
} }] };
