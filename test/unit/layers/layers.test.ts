import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cruise } from 'dependency-cruiser';
import type { ICruiseOptions, ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');

/** The rule violations of .dependency-cruiser.cjs in the tree at `baseDir`, as `rule: from → to`. */
async function violations(baseDir: string): Promise<string[]> {
  const options: ICruiseOptions = await extractDepcruiseOptions(join(repo, '.dependency-cruiser.cjs'));
  const out = await cruise(['src', 'webview'], { ...options, baseDir, validate: true, outputType: 'json' });
  const result = (typeof out.output === 'string' ? JSON.parse(out.output) : out.output) as ICruiseResult;
  expect(result.summary.totalCruised).toBeGreaterThan(0);
  // A cycle is one finding, named from whichever of its modules the cruise reached first;
  // packages of a fixture tree resolve to the repo's node_modules, above it.
  return result.summary.violations
    .map((v) => {
      const to = v.to.replace(/^(\.\.\/)+/, '');
      return v.rule.name === 'no-cycles' ? `no-cycles: ${[v.from, to].sort().join(' ↔ ')}` : `${v.rule.name}: ${v.from} → ${to}`;
    })
    .sort();
}

describe('the layer rules (.dependency-cruiser.cjs)', () => {
  it('hold for Keel: core, chat, protocol and webview import only what their layer may, and nothing imports in a cycle', async () => {
    expect(await violations(repo)).toEqual([]);
  }, 120_000);

  it('fail a tree that breaks each of them', async () => {
    expect(await violations(join(repo, 'test', 'fixtures', 'layers', 'broken'))).toEqual([
      'chat-is-editor-free: src/chat/chatThing.ts → node_modules/@types/vscode/index.d.ts',
      'chat-is-editor-free: src/chat/chatThing.ts → src/vscode/adapter.ts',
      'core-stands-alone: src/core/engine.ts → src/chat/chatThing.ts',
      'core-through-entries: src/cli/run.ts → src/core/store/disk.ts',
      'no-cycles: src/core/left.ts ↔ src/core/right.ts',
      'protocol-only-zod: src/protocol/frame.ts → fs',
      'webview-speaks-protocol: webview/panel.ts → src/core/engine.ts',
    ]);
  }, 120_000);
});

/** Product source files (TypeScript) under `dir`, as paths relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(repo, join(e.parentPath, e.name)));
}

describe('file size', () => {
  it('no product file is over 400 lines: a longer one holds two things', () => {
    const long = [...sourceFiles(join(repo, 'src')), ...sourceFiles(join(repo, 'webview'))]
      .map((file) => ({ file, lines: readFileSync(join(repo, file), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 400)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});
