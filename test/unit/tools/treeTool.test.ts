import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presentCall } from '../../../src/core/tools/toolPresentation';
import { treeFilesPerFolder, treeTool } from '../../../src/core/tools/treeTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv('keel-tree-');
});
afterEach(async () => {
  await env.cleanup();
});

describe('tree', () => {
  it('shows folders first with their file counts, then files, to the asked depth', async () => {
    await env.file('README.md', '');
    await env.file('src/app.ts', '');
    await env.file('src/core/a.ts', '');
    await env.file('src/core/deep/b.ts', '');
    await env.file('src/core/deep/c.ts', '');
    await env.file('test/app.test.ts', '');
    expect(textOf(await env.run(treeTool, { depth: 2 }))).toBe(
      [
        './ (6 files)',
        '  src/ (4 files)',
        '    core/ (3 files)',
        '    app.ts',
        '  test/ (1 file)',
        '    app.test.ts',
        '  README.md',
      ].join('\n'),
    );
    expect(textOf(await env.run(treeTool, { path: 'src/core' }))).toBe(['src/core/ (3 files)', '  deep/ (2 files)', '    b.ts', '    c.ts', '  a.ts'].join('\n'));
  });

  it('leaves out what .gitignore ignores, .git and node_modules', async () => {
    await env.file('.gitignore', 'dist/\n');
    await env.file('dist/out.js', '');
    await env.file('node_modules/x/index.js', '');
    await env.file('.git/HEAD', '');
    await env.file('src/app.ts', '');
    expect(textOf(await env.run(treeTool, {}))).toBe(['./ (2 files)', '  src/ (1 file)', '    app.ts', '  .gitignore'].join('\n'));
  });

  it('shortens a crowded folder and refuses a file or a path outside the workspace', async () => {
    for (let i = 0; i < treeFilesPerFolder + 4; i++) await env.file(`many/f${String(i).padStart(2, '0')}.txt`, '');
    const text = textOf(await env.run(treeTool, { path: 'many' }));
    expect(text.split('\n')).toHaveLength(1 + treeFilesPerFolder + 1);
    expect(text).toContain('… 4 more files');
    await env.file('one.txt', '');
    const onFile = await env.run(treeTool, { path: 'one.txt' });
    expect(onFile.isError).toBe(true);
    expect(textOf(onFile)).toContain('is a file, not a folder');
    expect((await env.run(treeTool, { path: '/etc' })).isError).toBe(true);
  });

  it('draws its own card: the folder as summary, a tree icon', () => {
    const look = presentCall(treeTool, 'tree', { path: 'src', depth: 2 });
    expect(look).toMatchObject({ title: 'tree', summary: 'src', icon: 'list-tree' });
    expect(look.details).toEqual({ kind: 'keyValue', entries: [{ key: 'path', value: 'src' }, { key: 'depth', value: '2' }] });
  });
});
