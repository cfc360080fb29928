// Builds Keel's bundles: the extension host, the CLI and the webview.
// `--watch` rebuilds on change; `--production` (or NODE_ENV=production) minifies and drops sourcemaps.
import { context } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  logLevel: 'info',
  metafile: true,
  define: {
    'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
    KEEL_VERSION: JSON.stringify(pkg.version),
  },
};

// Activation must stay cheap: dist/extension.js is a small shell, and everything that pulls in
// the AI SDK lives in dist/host.js, loaded on first use through one dynamic import.
const hostSplit = {
  name: 'host-split',
  setup(b) {
    b.onResolve({ filter: /^\.\/keelRuntime$/ }, () => ({ path: './host.js', external: true }));
  },
};

const targets = [
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
    plugins: [hostSplit],
  },
  {
    ...common,
    entryPoints: ['src/vscode/keelRuntime.ts'],
    outfile: 'dist/host.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: ['webview/main.tsx'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    loader: { '.ttf': 'file', '.woff2': 'file' },
  },
];

const contexts = await Promise.all(targets.map((t) => context(t)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  try {
    await Promise.all(contexts.map((c) => c.rebuild()));
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}
