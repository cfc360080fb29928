import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Bundles sessionWorker.ts into `outDir` so a plain Node process can run it. */
export async function bundleWorker(outDir: string): Promise<string> {
  const outfile = join(outDir, 'sessionWorker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'sessionWorker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // CommonJS dependencies (@vscode/l10n) require Node's modules: give the ES module a require.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return outfile;
}

export function startWorker(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Resolves with the first line the worker prints (rejects if it exits first). */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}) before printing a line: ${err}`)));
  });
}

export async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

/** Resolves once the file at `path` holds at least `bytes` (a worker writing it got that far). */
export async function grownTo(path: string, bytes: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      // Not created yet.
    }
    if (size >= bytes) return;
    if (Date.now() > deadline) throw new Error(`${path} did not reach ${bytes} bytes (it has ${size})`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
