import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host';
import { readTool } from '../../../src/core/tools/readTool';
import { writeTool } from '../../../src/core/tools/writeTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv();
});
afterEach(async () => {
  await env.cleanup();
});

const disk = (rel: string) => readFile(join(env.root, rel), 'utf8');

describe('write', () => {
  it('creates a file with its folders and says how many lines', async () => {
    const result = await env.run(writeTool, { file_path: 'src/new.ts', content: 'a\nb\n' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toBe('Created src/new.ts (2 lines).');
    expect(await disk('src/new.ts')).toBe('a\nb\n');
  });

  it('previews creation with before = null', async () => {
    const preview = await writeTool.preview!({ file_path: 'x.txt', content: 'hi' }, env.ctx());
    expect(preview.change).toMatchObject({ before: null, after: 'hi', displayPath: 'x.txt' });
    expect(preview.summary).toBe('Create x.txt');
  });

  it('refuses to overwrite a file the agent never read', async () => {
    await env.file('keep.txt', 'precious\n');
    const result = await env.run(writeTool, { file_path: 'keep.txt', content: 'gone' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/has not been read/);
    expect(await disk('keep.txt')).toBe('precious\n');
  });

  it('refuses to overwrite a file changed since it was read, and allows it after reading again', async () => {
    await env.file('f.txt', 'v1\n');
    await env.run(readTool, { file_path: 'f.txt' });
    await writeFile(join(env.root, 'f.txt'), 'v2 is longer\n');
    const stale = await env.run(writeTool, { file_path: 'f.txt', content: 'mine\n' });
    expect(stale.isError).toBe(true);
    expect(await disk('f.txt')).toBe('v2 is longer\n');
    await env.run(readTool, { file_path: 'f.txt' });
    const ok = await env.run(writeTool, { file_path: 'f.txt', content: 'mine\n' });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(textOf(ok)).toBe('Overwrote f.txt (1 line).');
    expect(await disk('f.txt')).toBe('mine\n');
  });

  it("keeps an existing file's CRLF line endings and BOM", async () => {
    await env.file('w.txt', '\uFEFFold\r\nlines\r\n');
    await env.run(readTool, { file_path: 'w.txt' });
    await env.run(writeTool, { file_path: 'w.txt', content: 'new\ncontent\n' });
    expect(await disk('w.txt')).toBe('\uFEFFnew\r\ncontent\r\n');
  });

  it("tells the model when the editor's save actions changed the file, and tracks what landed", async () => {
    // A host whose save trims trailing whitespace, as VS Code's save participants may.
    const host: Host = {
      ...env.host,
      writeFile: async (p, c) => {
        const landed = c === null ? c : c.replace(/[ \t]+$/gm, '');
        await env.host.writeFile(p, landed);
        return landed === c || landed === null ? {} : { landed };
      },
    };
    const result = await env.run(writeTool, { file_path: 'x.ts', content: 'const a = 1;   \n' }, { host });
    expect(textOf(result)).toMatch(/save actions .* changed x\.ts/);
    expect(await disk('x.ts')).toBe('const a = 1;\n');
    // The tracker holds what is on disk, so a follow-up write is not refused as stale.
    const again = await env.run(writeTool, { file_path: 'x.ts', content: 'const a = 2;\n' }, { host });
    expect(again.isError, textOf(again)).toBeFalsy();
    expect(await disk('x.ts')).toBe('const a = 2;\n');
  });

  it('includes the diagnostics the host reports', async () => {
    const host: Host = { ...env.host, writeFile: async (p, c) => ({ ...(await env.host.writeFile(p, c)), diagnostics: 'x.ts:1 error TS2304' }) };
    const result = await env.run(writeTool, { file_path: 'x.ts', content: 'y\n' }, { host });
    expect(textOf(result)).toContain('x.ts:1 error TS2304');
  });

  it('refuses a folder and an escape', async () => {
    await env.file('dir/x', '');
    expect((await env.run(writeTool, { file_path: 'dir', content: '' })).isError).toBe(true);
    expect((await env.run(writeTool, { file_path: '../escape.txt', content: '' })).isError).toBe(true);
  });
});
