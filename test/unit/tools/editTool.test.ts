import { readFile, stat, chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/core/tools/editTool';
import { readTool } from '../../../src/core/tools/readTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv();
});
afterEach(async () => {
  await env.cleanup();
});

async function readFirst(rel: string): Promise<void> {
  const result = await env.run(readTool, { file_path: rel });
  expect(result.isError, textOf(result)).toBeFalsy();
}

const disk = (rel: string) => readFile(join(env.root, rel), 'utf8');

describe('edit', () => {
  it('replaces a unique match and previews the change first', async () => {
    await env.file('a.ts', 'const a = 1;\nconst b = 2;\n');
    await readFirst('a.ts');
    const preview = await editTool.preview!({ file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' }, env.ctx());
    expect(preview.change).toMatchObject({
      displayPath: 'a.ts',
      before: 'const a = 1;\nconst b = 2;\n',
      after: 'const a = 1;\nconst b = 3;\n',
    });
    expect(await disk('a.ts')).toBe('const a = 1;\nconst b = 2;\n');
    const result = await editTool.execute({ file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' }, env.ctx({ preview }));
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(await disk('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('refuses an ambiguous match, saying how many, unless replace_all', async () => {
    await env.file('a.ts', 'x();\nx();\nx();\n');
    await readFirst('a.ts');
    const ambiguous = await env.run(editTool, { file_path: 'a.ts', old_string: 'x()', new_string: 'y()' });
    expect(ambiguous.isError).toBe(true);
    expect(textOf(ambiguous)).toMatch(/matches 3 times.*replace_all/s);
    expect(await disk('a.ts')).toBe('x();\nx();\nx();\n');
    const all = await env.run(editTool, { file_path: 'a.ts', old_string: 'x()', new_string: 'y()', replace_all: true });
    expect(all.isError, textOf(all)).toBeFalsy();
    expect(await disk('a.ts')).toBe('y();\ny();\ny();\n');
  });

  it('reports text that is not there, with a hint when only indentation differs', async () => {
    await env.file('a.py', 'def f():\n    return 1\n');
    await readFirst('a.py');
    const result = await env.run(editTool, { file_path: 'a.py', old_string: 'def f():\n  return 1', new_string: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('old_string was not found');
    expect(textOf(result)).toContain('at line 1');
  });

  it('refuses old_string equal to new_string', async () => {
    await env.file('a.txt', 'same\n');
    await readFirst('a.txt');
    const result = await env.run(editTool, { file_path: 'a.txt', old_string: 'same', new_string: 'same' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/identical/);
  });

  it('takes replacement text literally ($& and $1 are not patterns)', async () => {
    await env.file('a.txt', 'price\n');
    await readFirst('a.txt');
    await env.run(editTool, { file_path: 'a.txt', old_string: 'price', new_string: 'cost $& $1 $$' });
    expect(await disk('a.txt')).toBe('cost $& $1 $$\n');
  });

  it('matches and writes CRLF in a CRLF file when the model writes \\n', async () => {
    await env.file('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await readFirst('win.txt');
    const result = await env.run(editTool, { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nmas' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(await disk('win.txt')).toBe('uno\r\ndos\r\nmas\r\nthree\r\n');
  });

  it('keeps a UTF-8 BOM', async () => {
    await env.file('bom.cs', '\uFEFFclass A {}\n');
    await readFirst('bom.cs');
    await env.run(editTool, { file_path: 'bom.cs', old_string: 'class A', new_string: 'class B' });
    const bytes = await readFile(join(env.root, 'bom.cs'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('class B {}\n');
  });

  it('keeps the final-newline state of the file', async () => {
    await env.file('with.txt', 'a\nb\n');
    await env.file('without.txt', 'a\nb');
    await readFirst('with.txt');
    await readFirst('without.txt');
    await env.run(editTool, { file_path: 'with.txt', old_string: 'b\n', new_string: 'c' });
    await env.run(editTool, { file_path: 'without.txt', old_string: 'b', new_string: 'c\n' });
    expect(await disk('with.txt')).toBe('a\nc\n');
    expect(await disk('without.txt')).toBe('a\nc');
  });

  it('refuses to edit a file that was never read in this session', async () => {
    await env.file('unread.txt', 'hello\n');
    const result = await env.run(editTool, { file_path: 'unread.txt', old_string: 'hello', new_string: 'bye' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/has not been read/);
    expect(await disk('unread.txt')).toBe('hello\n');
  });

  it('refuses to edit a file changed on disk since it was read, also with the same size', async () => {
    await env.file('s.txt', 'value = 1\n');
    await readFirst('s.txt');
    await writeFile(join(env.root, 's.txt'), 'value = 2\n');
    const result = await env.run(editTool, { file_path: 's.txt', old_string: 'value', new_string: 'v' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/changed on disk since it was last read/);
    expect(await disk('s.txt')).toBe('value = 2\n');
  });

  it('refuses at execute time when the file changes after the preview', async () => {
    await env.file('race.txt', 'a = 1\n');
    await readFirst('race.txt');
    const input = { file_path: 'race.txt', old_string: 'a = 1', new_string: 'a = 2' };
    const preview = await editTool.preview!(input, env.ctx());
    await writeFile(join(env.root, 'race.txt'), 'a = 1\nb = 1\n');
    const result = await editTool.execute(input, env.ctx({ preview }));
    expect(result.isError).toBe(true);
    expect(await disk('race.txt')).toBe('a = 1\nb = 1\n');
  });

  it('allows a second edit right after its own first one', async () => {
    await env.file('twice.txt', 'a\nb\n');
    await readFirst('twice.txt');
    expect((await env.run(editTool, { file_path: 'twice.txt', old_string: 'a', new_string: 'A' })).isError).toBeFalsy();
    const second = await env.run(editTool, { file_path: 'twice.txt', old_string: 'b', new_string: 'B' });
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(await disk('twice.txt')).toBe('A\nB\n');
  });

  it('recomputes an edit whose preview was overtaken by an earlier edit of the same file', async () => {
    await env.file('p.txt', 'a\nb\n');
    await readFirst('p.txt');
    const first = { file_path: 'p.txt', old_string: 'a', new_string: 'A' };
    const second = { file_path: 'p.txt', old_string: 'b', new_string: 'B' };
    const p1 = await editTool.preview!(first, env.ctx());
    const p2 = await editTool.preview!(second, env.ctx());
    await editTool.execute(first, env.ctx({ preview: p1, approval: { approved: true } }));
    const r2 = await editTool.execute(second, env.ctx({ preview: p2, approval: { approved: true } }));
    expect(r2.isError, textOf(r2)).toBeFalsy();
    expect(await disk('p.txt')).toBe('A\nB\n');
  });

  it('creates a new file from an empty old_string, but not over an existing one', async () => {
    const created = await env.run(editTool, { file_path: 'new/dir/file.txt', old_string: '', new_string: 'fresh\n' });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(textOf(created)).toContain('Created new/dir/file.txt');
    expect(await disk('new/dir/file.txt')).toBe('fresh\n');
    await env.file('exists.txt', 'content\n');
    await readFirst('exists.txt');
    const refused = await env.run(editTool, { file_path: 'exists.txt', old_string: '', new_string: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/already exists and is not empty/);
  });

  it('applies the content the person settled on and passes their note to the model', async () => {
    await env.file('a.txt', 'one\n');
    await readFirst('a.txt');
    const result = await env.run(
      editTool,
      { file_path: 'a.txt', old_string: 'one', new_string: 'two' },
      { approval: { approved: true, content: 'their version\n', note: 'I kept the old name.' } },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(await disk('a.txt')).toBe('their version\n');
    expect(textOf(result)).toContain('modified the proposed change');
    expect(textOf(result)).toContain('I kept the old name.');
    // The agent now knows this version: a follow-up edit works.
    expect((await env.run(editTool, { file_path: 'a.txt', old_string: 'their', new_string: 'our' })).isError).toBeFalsy();
  });

  it('writes nothing when the call was not approved', async () => {
    await env.file('a.txt', 'one\n');
    await readFirst('a.txt');
    const result = await env.run(editTool, { file_path: 'a.txt', old_string: 'one', new_string: 'two' }, { approval: { approved: false } });
    expect(result.isError).toBe(true);
    expect(await disk('a.txt')).toBe('one\n');
  });

  it('keeps the file mode when writing', async () => {
    const path = await env.file('run.sh', '#!/bin/sh\necho hi\n');
    await chmod(path, 0o755);
    await readFirst('run.sh');
    await env.run(editTool, { file_path: 'run.sh', old_string: 'hi', new_string: 'there' });
    expect((await stat(path)).mode & 0o777).toBe(0o755);
  });

  it('refuses paths outside the workspace and protected-path tricks', async () => {
    const outside = await env.run(editTool, { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the workspace/);
    const trick = await env.run(editTool, { file_path: '.git./config', old_string: '', new_string: 'x' });
    expect(trick.isError).toBe(true);
  });

  it('refuses files with invalid UTF-8 instead of corrupting them', async () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xff]), Buffer.from(' tail\n')]);
    await env.file('mixed.txt', bytes);
    await readFirst('mixed.txt');
    const result = await env.run(editTool, { file_path: 'mixed.txt', old_string: 'tail', new_string: 'end' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid UTF-8/);
    expect((await readFile(join(env.root, 'mixed.txt'))).equals(bytes)).toBe(true);
  });
});
