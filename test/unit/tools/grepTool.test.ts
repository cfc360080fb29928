import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../../src/core/tools/grepTool';
import { ripgrepOnPath } from '../../../src/core/tools/search/ripgrep';
import type { SearchEngineChoice } from '../../../src/core/tools/search/searchEngine';
import { FileReadTracker } from '../../../src/core/tools/fileReadTracker';
import { TodoStore } from '../../../src/core/tools/todoStore';
import { createFsHost } from '../../../src/core/fsHost';
import { Workspace } from '../../../src/core/workspace/workspace';
import { searchFiles, writeSearchTree } from './searchFixture';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeAll(async () => {
  env = await createToolEnv('keel-grep-');
  await writeSearchTree(env);
});
afterAll(async () => {
  await env.cleanup();
});

it('has ripgrep installed (the ripgrep engine tests need it: apt-get install ripgrep)', async () => {
  expect(await ripgrepOnPath()).toBeDefined();
});

const engines: SearchEngineChoice[] = ['ripgrep', 'js'];

describe.each(engines)('grep with the %s engine', (engine) => {
  const grep = createGrepTool({ engine });
  const run = async (input: Record<string, unknown>) => {
    const result = await env.run(grep, input);
    return { result, text: textOf(result) };
  };

  it('lists matching files newest first, honouring .gitignore and skipping .git, node_modules, binaries and symlinks', async () => {
    const { result, text } = await run({ pattern: 'needle' });
    expect(result.isError, text).toBeFalsy();
    const newestFirst = searchFiles
      .map(([rel]) => rel)
      .filter((rel) => ['src/a.ts', 'src/b.tsx', 'src/root-only.txt', 'keep.log', '.hidden/h.ts', 'crlf.txt'].includes(rel));
    expect(text).toBe(`Found ${newestFirst.length} files\n${newestFirst.join('\n')}`);
  });

  it('shows content with line numbers and context, groups separated by --', async () => {
    const { text } = await run({ pattern: 'needle', output_mode: 'content', path: 'src', '-C': 1 });
    expect(text).toBe(
      [
        "src/a.ts-1-import x from 'y';",
        'src/a.ts:2:const needle = 1;',
        'src/a.ts-3-export { x };',
        '--',
        'src/b.tsx:1:needle again',
        '--',
        'src/root-only.txt:1:needle, kept: the anchored rule only applies at the root',
      ].join('\n'),
    );
  });

  it('omits line numbers when -n is false', async () => {
    const { text } = await run({ pattern: 'needle again', output_mode: 'content', '-n': false });
    expect(text).toBe('src/b.tsx:needle again');
  });

  it('counts matching lines per file', async () => {
    await writeFile(join(env.root, 'src', 'count.md'), 'x\nx y\nz\nx\n');
    const { text } = await run({ pattern: 'x', output_mode: 'count', path: 'src', glob: '*.md' });
    expect(text).toBe('src/count.md:3\n\n3 matching lines in 1 file');
  });

  it('ignores case with -i and with a leading (?i)', async () => {
    expect((await run({ pattern: 'NEEDLE IN', '-i': true })).text).toBe('Found 1 file\ndocs/readme.md');
    expect((await run({ pattern: '(?i)needle in docs' })).text).toBe('Found 1 file\ndocs/readme.md');
    expect((await run({ pattern: 'NEEDLE IN' })).text).toBe('No matches found.');
  });

  it('filters by glob without bringing back ignored files', async () => {
    expect((await run({ pattern: 'needle', glob: '*.ts' })).text).toBe('Found 2 files\nsrc/a.ts\n.hidden/h.ts');
    expect((await run({ pattern: 'needle', glob: '*.{ts,tsx}' })).text).toBe('Found 3 files\nsrc/a.ts\nsrc/b.tsx\n.hidden/h.ts');
    expect((await run({ pattern: 'needle', glob: 'src/**/*.tsx' })).text).toBe('Found 1 file\nsrc/b.tsx');
    expect((await run({ pattern: 'needle', glob: '*.js' })).text).toBe('No matches found.');
    expect((await run({ pattern: 'needle', glob: '!*.{ts,tsx,txt}' })).text).toBe('Found 1 file\nkeep.log');
  });

  it('matches $ at the end of CRLF lines', async () => {
    const { text } = await run({ pattern: 'needle$', output_mode: 'content' });
    expect(text).toBe('crlf.txt:1:ends with needle');
  });

  it('searches a single file given as path, even an ignored one', async () => {
    expect((await run({ pattern: 'needle', path: 'debug.log' })).text).toBe('Found 1 file\ndebug.log');
  });

  it('reports a bad regular expression as an error, not as no matches', async () => {
    const { result, text } = await run({ pattern: 'foo(' });
    expect(result.isError).toBe(true);
    expect(text).not.toContain('No matches');
  });

  it('applies head_limit and says what was left out', async () => {
    const { text } = await run({ pattern: 'needle', head_limit: 2 });
    expect(text).toBe('Found 6 files\nsrc/a.ts\nsrc/b.tsx\n\nShowing the first 2 of 6 files. Use head_limit, or narrow the path, glob or pattern.');
  });

  it('refuses paths outside the workspace and reports missing ones', async () => {
    const outside = await run({ pattern: 'root', path: '/etc' });
    expect(outside.result.isError).toBe(true);
    expect(outside.text).toMatch(/outside the workspace/);
    const missing = await run({ pattern: 'x', path: 'nope' });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toContain('No such file or folder: nope');
  });
});

describe('grep engines', () => {
  it('really differ in regex dialect: ripgrep rejects look-ahead, JavaScript accepts it', async () => {
    const input = { pattern: 'needle(?= again)' };
    const viaRg = await env.run(createGrepTool({ engine: 'ripgrep' }), input);
    expect(viaRg.isError).toBe(true);
    expect(textOf(viaRg)).toMatch(/look-?around|look-?ahead/i);
    expect(textOf(await env.run(createGrepTool({ engine: 'js' }), input))).toBe('Found 1 file\nsrc/b.tsx');
  });
});

describe('grep engines agree', () => {
  it.each([
    { pattern: 'needle' },
    { pattern: 'e', output_mode: 'count' },
    { pattern: 'n.e', output_mode: 'content', '-B': 2 },
    { pattern: '^[a-z]+', output_mode: 'content', glob: '*.{ts,txt,log}' },
  ])('on %j', async (input) => {
    const viaRg = textOf(await env.run(createGrepTool({ engine: 'ripgrep' }), input));
    const viaJs = textOf(await env.run(createGrepTool({ engine: 'js' }), input));
    expect(viaJs).toBe(viaRg);
  });
});

describe('grep in a multi-root workspace', () => {
  it('searches the current project by default, another folder by its name, and prefixes paths with the folder name', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-grep-multi-')));
    try {
      await mkdir(join(base, 'web'));
      await mkdir(join(base, 'api'));
      await writeFile(join(base, 'web', 'w.ts'), 'shared token\n');
      await writeFile(join(base, 'api', 'a.ts'), 'shared token\n');
      const workspace = await Workspace.create([{ path: join(base, 'web') }, { path: join(base, 'api') }]);
      const ctx = {
        signal: new AbortController().signal,
        workspace,
        host: createFsHost(),
        reads: new FileReadTracker(),
        todos: new TodoStore(),
        toolCallId: 't',
      };
      for (const engine of engines) {
        const text = textOf(await createGrepTool({ engine }).execute({ pattern: 'shared', output_mode: 'count' }, ctx));
        expect(text).toBe('web/w.ts:1\n\n1 matching line in 1 file');
        const inApi = textOf(await createGrepTool({ engine }).execute({ pattern: 'shared', output_mode: 'count', path: 'api' }, ctx));
        expect(inApi).toBe('api/a.ts:1\n\n1 matching line in 1 file');
        const current = { ...ctx, workspace: workspace.withCurrent('api') };
        const fromApi = textOf(await createGrepTool({ engine }).execute({ pattern: 'shared', output_mode: 'count' }, current));
        expect(fromApi).toBe('api/a.ts:1\n\n1 matching line in 1 file');
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
