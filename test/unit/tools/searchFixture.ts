import { mkdir, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolEnv } from './toolTestKit';

/**
 * A tree exercising every ignore rule. Files get distinct mtimes in listing order
 * (the first is the newest) so "newest first" output is deterministic.
 */
export const searchFiles: [string, string | Buffer][] = [
  ['src/a.ts', "import x from 'y';\nconst needle = 1;\nexport { x };\n"],
  ['src/b.tsx', 'needle again\n'],
  ['src/sub/c.ts', 'no match here\n'],
  ['src/sub/.gitignore', 'local.ts\n'],
  ['src/sub/local.ts', 'needle local (ignored by the nested .gitignore)\n'],
  ['src/root-only.txt', 'needle, kept: the anchored rule only applies at the root\n'],
  ['root-only.txt', 'needle ignored\n'],
  ['debug.log', 'needle ignored\n'],
  ['keep.log', 'needle re-included\n'],
  ['build/out.js', 'needle ignored\n'],
  ['src/build/x.js', 'needle ignored\n'],
  ['docs/x.tmp', 'needle ignored\n'],
  ['docs/a/b/y.tmp', 'needle ignored\n'],
  ['docs/readme.md', 'Needle in docs\n'],
  ['node_modules/pkg/index.js', 'needle in node_modules\n'],
  ['.git/config', 'needle in git\n'],
  ['.hidden/h.ts', 'needle hidden\n'],
  ['#hash.txt', 'needle ignored by an escaped #\n'],
  ['bin.dat', Buffer.from('needle\0binary\n')],
  ['crlf.txt', 'ends with needle\r\nnext\r\n'],
  ['.gitignore', '# comment\n*.log\nbuild/\n/root-only.txt\n!keep.log\ndocs/**/*.tmp\n\\#hash.txt\n'],
];

/** Files a search of the whole tree may see, by display path. */
export const visibleFiles = [
  'src/a.ts',
  'src/b.tsx',
  'src/sub/c.ts',
  'src/sub/.gitignore',
  'src/root-only.txt',
  'keep.log',
  'docs/readme.md',
  '.hidden/h.ts',
  'bin.dat',
  'crlf.txt',
  '.gitignore',
];

export async function writeSearchTree(env: ToolEnv): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z') / 1000;
  for (const [i, [rel, content]] of searchFiles.entries()) {
    const path = await env.file(rel, content);
    const t = base - i * 60;
    await utimes(path, t, t);
  }
  await mkdir(join(env.root, 'links'));
  await symlink(join(env.root, 'src', 'a.ts'), join(env.root, 'links', 'link.ts'));
  await symlink(join(env.root, 'src'), join(env.root, 'links', 'srcdir'));
}
