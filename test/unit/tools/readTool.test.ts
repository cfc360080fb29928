import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from '../../../src/core/tools/readTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv();
});
afterEach(async () => {
  await env.cleanup();
});

const png1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('read', () => {
  it('numbers lines like cat -n and records the read', async () => {
    const path = await env.file('a.txt', 'alpha\nbeta\r\ngamma\n');
    const result = await env.run(readTool, { file_path: 'a.txt' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(env.reads.has(path)).toBe(true);
  });

  it('reads a window with offset and limit and says how to continue', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    await env.file('ten.txt', lines);
    const text = textOf(await env.run(readTool, { file_path: 'ten.txt', offset: 3, limit: 2 }));
    expect(text).toContain('     3\tline 3\n     4\tline 4');
    expect(text).not.toContain('line 5');
    expect(text).toContain('Showing lines 3-4 of 10. Use offset=5');
  });

  it('stops at 2000 lines by default', async () => {
    await env.file('long.txt', Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join('\n'));
    const text = textOf(await env.run(readTool, { file_path: 'long.txt' }));
    expect(text).toContain('  2000\tl2000');
    expect(text).not.toContain('l2001');
    expect(text).toContain('Use offset=2001');
  });

  it('cuts very long lines with a marker', async () => {
    await env.file('wide.txt', `${'x'.repeat(2500)}\nshort\n`);
    const text = textOf(await env.run(readTool, { file_path: 'wide.txt' }));
    expect(text).toContain(`${'x'.repeat(2000)}… [line truncated: 500 more characters]`);
    expect(text).not.toContain('x'.repeat(2001));
    expect(text).toContain('     2\tshort');
  });

  it('says when the offset is past the end and when the file is empty', async () => {
    await env.file('two.txt', 'a\nb\n');
    await env.file('empty.txt', '');
    expect(textOf(await env.run(readTool, { file_path: 'two.txt', offset: 5 }))).toContain('has 2 lines; offset 5 is past the end');
    expect(textOf(await env.run(readTool, { file_path: 'empty.txt' }))).toContain('is empty');
  });

  it('refuses binary files: NUL bytes or invalid UTF-8', async () => {
    await env.file('bin.dat', Buffer.from([0x41, 0x00, 0x42]));
    await env.file('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x78]));
    const nul = await env.run(readTool, { file_path: 'bin.dat' });
    expect(nul.isError).toBe(true);
    expect(textOf(nul)).toMatch(/binary file \(it contains NUL bytes\)/);
    const bad = await env.run(readTool, { file_path: 'latin1.txt' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/not valid UTF-8/);
  });

  it('does not mistake a multi-byte character cut at 8 KB for invalid UTF-8', async () => {
    // 8191 ASCII bytes, then a two-byte character straddling the 8 KB sniff boundary.
    const text = `${`${'a'.repeat(99)}\n`.repeat(81)}${'a'.repeat(91)}é tail\n`;
    expect(Buffer.byteLength(text.slice(0, text.indexOf('é')))).toBe(8191);
    await env.file('edge.txt', text);
    const result = await env.run(readTool, { file_path: 'edge.txt' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('é tail');
  });

  it('returns images as an image part with a short text', async () => {
    await env.file('dot.png', png1x1);
    const result = await env.run(readTool, { file_path: 'dot.png' });
    expect(result.isError).toBeFalsy();
    expect(Array.isArray(result.output)).toBe(true);
    const parts = result.output as Exclude<typeof result.output, string>;
    expect(parts[0]).toMatchObject({ type: 'text' });
    expect(parts[1]).toEqual({ type: 'image', data: png1x1.toString('base64'), mediaType: 'image/png' });
  });

  it('points to ls for a directory and reports missing files and escapes as errors', async () => {
    await env.file('dir/x.txt', 'x');
    const dir = await env.run(readTool, { file_path: 'dir' });
    expect(dir.isError).toBe(true);
    expect(textOf(dir)).toMatch(/directory.*ls/);
    const missing = await env.run(readTool, { file_path: 'nope.txt' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('File not found: nope.txt');
    const outside = await env.run(readTool, { file_path: '../../etc/passwd' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the workspace/);
  });

  it('hides the BOM from the numbered output', async () => {
    await env.file('bom.txt', '\uFEFFfirst\n');
    expect(textOf(await env.run(readTool, { file_path: 'bom.txt' }))).toBe('     1\tfirst');
  });
});
