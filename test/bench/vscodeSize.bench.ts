// What Keel ships: the production bundles (npm run build -- --production) and the .vsix
// that packages them, in KB (1,024 bytes). One build, then each size is read once.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bench, BenchSuite } from './benchTypes';
import { repoRoot, rig } from './vscode/rigScripts.ts';

interface Built {
  dir: string;
  vsix: string;
}

let built: Promise<Built> | undefined;

function build(): Promise<Built> {
  built ??= (async () => {
    const packaging = await rig.packaging();
    await packaging.buildExtension(repoRoot, { production: true });
    const dir = mkdtempSync(join(tmpdir(), 'keel-size-'));
    return { dir, vsix: await packaging.packageVsix(repoRoot, { out: join(dir, 'keel.vsix') }) };
  })();
  return built;
}

const kb = (path: string): number => statSync(path).size / 1024;
const dist = (name: string): string => join(repoRoot, 'dist', name);

function size(name: string, target: string, limit: number, measure: (b: Built) => number, last = false): Bench<Built> {
  return {
    name,
    target,
    limit,
    unit: 'KB',
    runs: 1,
    warmup: 0,
    setup: build,
    run: measure,
    teardown: last
      ? async (state) => {
          built = undefined;
          if (state) rmSync(state.dir, { recursive: true, force: true });
        }
      : undefined,
  };
}

export const suite: BenchSuite = {
  name: 'vscode size',
  benches: [
    size('dist/extension.js (activation shell)', 'info', Number.POSITIVE_INFINITY, () => kb(dist('extension.js'))),
    size('dist/host.js (runtime, loaded on first use)', 'info', Number.POSITIVE_INFINITY, () => kb(dist('host.js'))),
    size('dist/extension.js + dist/host.js', '< 1,536 KB (1.5 MB)', 1536, () => kb(dist('extension.js')) + kb(dist('host.js'))),
    size('dist/webview.js', '< 600 KB', 600, () => kb(dist('webview.js'))),
    size('(info) dist/webview.css (codicons included)', 'info', Number.POSITIVE_INFINITY, () => kb(dist('webview.css'))),
    size('.vsix', '< 2,048 KB (2 MB)', 2048, (b) => kb(b.vsix), true),
  ],
};
