import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles } from '../../../src/core/tools/search/listFiles';
import { ripgrepOnPath } from '../../../src/core/tools/search/ripgrep';
import type { SearchEngine } from '../../../src/core/tools/search/searchEngine';

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-walk-')));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(rel: string, content = 'x\n'): Promise<void> {
  await mkdir(dirname(join(base, rel)), { recursive: true });
  await writeFile(join(base, rel), content);
}

async function engines(): Promise<SearchEngine[]> {
  const rgPath = await ripgrepOnPath();
  if (!rgPath) throw new Error('ripgrep (rg) must be installed for these tests: apt-get install ripgrep');
  return [{ kind: 'ripgrep', rgPath }, { kind: 'js' }];
}

async function listed(root: string, engine: SearchEngine): Promise<string[]> {
  const { files } = await listFiles([join(base, root)], engine, { signal: new AbortController().signal, maxFiles: 1000 });
  return files.map((f) => relative(base, f)).sort();
}

describe('file listing (ripgrep and the built-in walker alike)', () => {
  it('applies .gitignore files of parent folders when there is no repository', async () => {
    await put('.gitignore', '*.log\n');
    await put('ws/a.txt');
    await put('ws/b.log');
    for (const engine of await engines()) {
      expect(await listed('ws', engine), engine.kind).toEqual(['ws/a.txt']);
    }
  });

  it('stops at the repository root: ignore files above it do not apply', async () => {
    await put('.gitignore', '*.log\n');
    await mkdir(join(base, 'repo', '.git'), { recursive: true });
    await put('repo/.gitignore', '*.tmp\n');
    await put('repo/sub/a.log');
    await put('repo/sub/b.tmp');
    await put('repo/sub/c.txt');
    for (const engine of await engines()) {
      expect(await listed('repo/sub', engine), engine.kind).toEqual(['repo/sub/a.log', 'repo/sub/c.txt']);
    }
  });

  it('does not carry rules into a nested repository', async () => {
    await mkdir(join(base, 'ws', '.git'), { recursive: true });
    await put('ws/.gitignore', '*.tmp\n');
    await put('ws/top.tmp');
    await mkdir(join(base, 'ws', 'nested', '.git'), { recursive: true });
    await put('ws/nested/inner.tmp');
    for (const engine of await engines()) {
      expect(await listed('ws', engine), engine.kind).toEqual(['ws/.gitignore', 'ws/nested/inner.tmp']);
    }
  });

  it('cannot re-include a file inside an ignored folder', async () => {
    await put('ws/.gitignore', 'out/\n!out/keep.txt\n');
    await put('ws/out/keep.txt');
    await put('ws/in.txt');
    for (const engine of await engines()) {
      expect(await listed('ws', engine), engine.kind).toEqual(['ws/.gitignore', 'ws/in.txt']);
    }
  });

  it('re-includes through a whitelisted folder', async () => {
    await put('ws/.gitignore', '/*\n!/src/\n');
    await put('ws/src/a.ts');
    await put('ws/other/b.ts');
    await put('ws/c.ts');
    for (const engine of await engines()) {
      expect(await listed('ws', engine), engine.kind).toEqual(['ws/src/a.ts']);
    }
  });
});
