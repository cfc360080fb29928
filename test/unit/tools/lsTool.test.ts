import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lsMaxEntries, lsTool } from '../../../src/core/tools/lsTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv('keel-ls-');
});
afterEach(async () => {
  await env.cleanup();
});

describe('ls', () => {
  it('lists entries sorted, folders with a trailing slash, links with their target', async () => {
    await env.file('b.txt', '');
    await env.file('a/inner.txt', '');
    await env.file('.hidden', '');
    await symlink(join(env.root, 'a'), join(env.root, 'link'));
    await symlink('/nonexistent/target', join(env.root, 'broken'));
    const text = textOf(await env.run(lsTool, { path: '.' }));
    expect(text).toBe(
      ['./ (5 entries)', '.hidden', 'a/', 'b.txt', 'broken (broken link: ENOENT) -> /nonexistent/target', `link/ -> ${join(env.root, 'a')}`].join('\n'),
    );
  });

  it('defaults to the workspace root and lists subfolders by relative path', async () => {
    await env.file('src/x.ts', '');
    expect(textOf(await env.run(lsTool, {}))).toBe('./ (1 entry)\nsrc/');
    expect(textOf(await env.run(lsTool, { path: 'src' }))).toBe('src/ (1 entry)\nx.ts');
  });

  it('caps long listings with a note', async () => {
    for (let i = 0; i < lsMaxEntries + 5; i++) await env.file(`f${String(i).padStart(4, '0')}`, '');
    const text = textOf(await env.run(lsTool, {}));
    expect(text.split('\n')).toHaveLength(1 + lsMaxEntries + 2);
    expect(text).toContain('(5 more entries not shown.');
  });

  it('errors on files, missing folders and escapes', async () => {
    await env.file('f.txt', '');
    expect(textOf(await env.run(lsTool, { path: 'f.txt' }))).toMatch(/is a file.*read/);
    expect((await env.run(lsTool, { path: 'missing' })).isError).toBe(true);
    expect(textOf(await env.run(lsTool, { path: '..' }))).toMatch(/outside the workspace/);
  });
});
