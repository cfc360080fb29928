import { chmod, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'keel-fshost-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createFsHost', () => {
  it('writes files with their folders and leaves no temp files', async () => {
    const host = createFsHost();
    await host.writeFile(join(dir, 'a', 'b', 'c.txt'), 'hello');
    expect(await readFile(join(dir, 'a', 'b', 'c.txt'), 'utf8')).toBe('hello');
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['c.txt']);
  });

  it('replaces a file keeping its permission bits', async () => {
    const path = join(dir, 'tool.sh');
    await writeFile(path, 'old');
    await chmod(path, 0o750);
    await createFsHost().writeFile(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o750);
  });

  it('deletes a file when content is null, and tolerates one already gone', async () => {
    const path = join(dir, 'x.txt');
    await writeFile(path, 'x');
    const host = createFsHost();
    await host.writeFile(path, null);
    await expect(stat(path)).rejects.toThrow();
    await expect(host.writeFile(path, null)).resolves.toEqual({});
  });

  it('fails without leaving a temp file when the target is a folder', async () => {
    await expect(createFsHost().writeFile(dir, 'x')).rejects.toThrow();
    const parent = join(dir, '..');
    const leftovers = (await readdir(parent)).filter((n) => n.includes('.keel-') && n.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('passes the ripgrep path through and reports itself as the CLI', () => {
    const host = createFsHost({ ripgrepPath: '/opt/rg' });
    expect(host.kind).toBe('cli');
    expect(host.ripgrepPath).toBe('/opt/rg');
  });
});
