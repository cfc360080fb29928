// esbuild bundling of TypeScript test files into runnable CommonJS next to the repo's
// node_modules (so the externals below resolve from there at run time).
import { build } from 'esbuild';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Files named like `suffix` under each given path (a file is taken as is).
export function collectFiles(paths, suffix) {
  const files = [];
  for (const path of paths) {
    const abs = resolve(path);
    if (!existsSync(abs)) throw new Error(`${abs} does not exist`);
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs, { recursive: true, encoding: 'utf8' })) {
        if (name.endsWith(suffix) && !name.split('/').includes('node_modules')) files.push(join(abs, name));
      }
    } else {
      files.push(abs);
    }
  }
  return [...new Set(files)].sort();
}

export async function bundleTests({ entryPoints, outdir, outbase, external = [] }) {
  await build({
    entryPoints,
    outdir,
    outbase,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    sourcemap: 'inline',
    external: ['vscode', 'mocha', 'playwright-core', ...external],
    logLevel: 'warning',
  });
}
