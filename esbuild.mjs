// Builds Keel's bundles: the extension host, the CLI and the webview.
// `--watch` rebuilds on change; `--production` (or NODE_ENV=production) minifies and drops sourcemaps.
import { context } from 'esbuild';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

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

// The credential libraries (AWS's signer and credential chain, google-auth-library) are files of
// their own next to the bundles, loaded the first time a request needs them (see
// src/core/model/sdk/sdkLoader.ts): `keel run` and the extension's runtime never parse them otherwise.
const sdkProviders = ['googleAuthSdk', 'bedrockSdk'];

// @ai-sdk/openai and openai-compatible import zod's `z` object, which bundlers cannot shake:
// it drags in every schema kind and all 40-odd error-message locales (about 370 KB). The
// namespace import has the same members and only keeps what the code uses.
const zodNamespace = {
  name: 'zod-namespace',
  setup(b) {
    // Some packages import it several times under other names (`import { z as z2 } from "zod/v4"`).
    const named = /import \{ z(?: as (\w+))? \} from "zod\/v4";/g;
    b.onLoad({ filter: /[\\/]node_modules[\\/]@ai-sdk[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('} from "zod/v4";')) return undefined;
      return { contents: text.replace(named, (_, as) => `import * as ${as ?? 'z'} from "zod/v4";`), loader: 'js' };
    });
  },
};

// The webview validates the protocol with zod but never turns a schema into JSON Schema; those
// two modules are reached only through methods it does not call, so its bundle gets stand-ins
// that say so if anything ever does (about 18 KB; the webview's budget is 600 KB).
const zodWithoutJsonSchema = {
  name: 'zod-without-json-schema',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(?:core\/)?(?:to-json-schema|json-schema-processors)\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-json-schema', namespace: 'keel-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'keel-stub' }, () => ({
      contents: [
        "const absent = () => { throw new Error('JSON Schema generation is not part of the webview bundle (esbuild.mjs)'); };",
        'export const toJSONSchema = absent, allProcessors = {}, createStandardJSONSchemaMethod = () => absent,',
        '  createToJSONSchemaMethod = () => absent, extractDefs = absent, finalize = absent,',
        '  initializeContext = absent, processSchema = absent, handleUnrepresentable = absent;',
      ].join('\n'),
      loader: 'js',
    }));
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
    plugins: [zodNamespace],
  },
  ...sdkProviders.map((name) => ({
    ...common,
    entryPoints: [`src/core/model/sdk/${name}.ts`],
    outfile: `dist/${name}.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    plugins: [zodNamespace],
  })),
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
    plugins: [zodNamespace],
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
    plugins: [zodWithoutJsonSchema],
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
