import { utimes } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../src/core/tools/globTool';
import type { SearchEngineChoice } from '../../../src/core/tools/search/searchEngine';
import { searchFiles, visibleFiles, writeSearchTree } from './searchFixture';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeAll(async () => {
  env = await createToolEnv('keel-glob-');
  await writeSearchTree(env);
});
afterAll(async () => {
  await env.cleanup();
});

/** Fixture paths in fixture order, which is newest first. */
const newestFirst = (keep: (rel: string) => boolean) => searchFiles.map(([rel]) => rel).filter(keep);

describe.each<SearchEngineChoice>(['ripgrep', 'js'])('glob with the %s engine', (engine) => {
  const glob = createGlobTool({ engine });
  const run = async (input: Record<string, unknown>) => textOf(await env.run(glob, input));

  it('lists every visible file newest first, honouring .gitignore', async () => {
    const text = await run({ pattern: '**/*' });
    expect(text).toBe(newestFirst((rel) => visibleFiles.includes(rel)).join('\n'));
  });

  it('keeps * within one folder and lets ** span folders', async () => {
    expect(await run({ pattern: '*.log' })).toBe('keep.log');
    expect(await run({ pattern: '**/*.ts' })).toBe('src/a.ts\nsrc/sub/c.ts\n.hidden/h.ts');
    expect(await run({ pattern: 'src/**/*.{ts,tsx}' })).toBe('src/a.ts\nsrc/b.tsx\nsrc/sub/c.ts');
  });

  it('searches below path', async () => {
    expect(await run({ pattern: '*.ts', path: 'src/sub' })).toBe('src/sub/c.ts');
  });

  it('returns a literal path when it exists', async () => {
    expect(await run({ pattern: 'src/b.tsx' })).toBe('src/b.tsx');
    expect(await run({ pattern: 'src/none.tsx' })).toBe('No files match "src/none.tsx".');
  });

  it('refuses .. after a wildcard and paths outside the workspace', async () => {
    const dots = await env.run(glob, { pattern: '**/../../*' });
    expect(dots.isError).toBe(true);
    const outside = await env.run(glob, { pattern: '../*' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the workspace/);
  });

  it('reports an unclosed brace', async () => {
    const result = await env.run(glob, { pattern: '*.{ts' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('unclosed');
  });
});

describe('glob caps', () => {
  it('shows the 100 newest of many matches with a note', async () => {
    const many = await createToolEnv('keel-glob-many-');
    try {
      const base = Date.parse('2024-01-01T00:00:00Z') / 1000;
      for (let i = 0; i < 120; i++) {
        const path = await many.file(`f${String(i).padStart(3, '0')}.txt`, '');
        await utimes(path, base + i, base + i);
      }
      for (const engine of ['ripgrep', 'js'] as const) {
        const text = textOf(await many.run(createGlobTool({ engine }), { pattern: '*.txt' }));
        const lines = text.split('\n');
        expect(lines[0]).toBe('f119.txt');
        expect(lines[99]).toBe('f020.txt');
        expect(text).toContain('Showing the 100 newest of 120 matches.');
      }
    } finally {
      await many.cleanup();
    }
  });
});
