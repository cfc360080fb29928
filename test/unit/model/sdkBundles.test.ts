// The credential libraries (AWS, Google) and SDK packages load only when a request needs them: each is imported
// by exactly one module of src/core/model/sdk (`<name>Sdk.ts`, its own bundle file, listed in
// esbuild.mjs), and nothing imports those modules but by type or through importSdk. An eager
// import anywhere else would put the package into `keel run`'s and the extension's startup.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../../..');
const sdkPackage = /^(?:@ai-sdk\/(?:anthropic|google|google-vertex|amazon-bedrock)(?:\/.*)?|@aws-sdk\/.*|google-auth-library)$/;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Value imports (not `import type`) and re-exports of a file, by specifier. */
function valueImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)) out.push(m[1]);
  // `typeof import('./x')` is a type; a dynamic import of a literal is a value.
  for (const m of text.matchAll(/(?<!typeof )\bimport\(\s*'([^']+)'\s*\)/g)) out.push(m[1]);
  return out;
}

describe('the SDK provider bundles', () => {
  const files = [...sources('src'), ...sources('webview')];
  const built = /const sdkProviders = \[([^\]]*)\]/.exec(readFileSync(join(root, 'esbuild.mjs'), 'utf8'))![1];

  it('are the only modules that import an SDK provider package, and each is a bundle of its own', () => {
    const importers = files.filter((f) => valueImports(readFileSync(join(root, f), 'utf8')).some((s) => sdkPackage.test(s)));
    expect(importers.length).toBeGreaterThanOrEqual(2);
    for (const f of importers) {
      expect(f, 'an SDK package is imported outside src/core/model/sdk/*Sdk.ts').toMatch(/^src\/core\/model\/sdk\/\w+Sdk\.ts$/);
      const name = /(\w+Sdk)\.ts$/.exec(f)![1];
      expect(built, `${name} is not a bundle file of its own in esbuild.mjs`).toContain(`'${name}'`);
    }
  });

  it('are never imported as values (only by type, or loaded by importSdk on first use)', () => {
    for (const f of files) {
      const eager = valueImports(readFileSync(join(root, f), 'utf8')).filter((s) => /\/\w+Sdk$/.test(s));
      expect(eager, relative(root, join(root, f))).toEqual([]);
    }
  });
});
