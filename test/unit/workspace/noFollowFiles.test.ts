import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedirectedPathError, readFileNoFollow, writeFileNoFollow, writeLinkNoFollow } from '../../../src/core/workspace/noFollowFiles';
import { folderSwapRacer } from '../sandbox/folderSwapRacer';

let dir: string;
let ws: string;
let outside: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-nofollow-')));
  ws = join(dir, 'ws');
  outside = join(dir, 'outside');
  mkdirSync(join(ws, 'dir'), { recursive: true });
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), '{}\n');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'SECRET\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writing and reading without following links', () => {
  it('writes new files in new folders, keeps a file’s permission bits, deletes, and restores a link', async () => {
    await writeFileNoFollow(join(ws, 'a', 'b', 'new.txt'), Buffer.from('one\n'));
    expect(readFileSync(join(ws, 'a', 'b', 'new.txt'), 'utf8')).toBe('one\n');
    chmodSync(join(ws, 'a', 'b', 'new.txt'), 0o755);
    await writeFileNoFollow(join(ws, 'a', 'b', 'new.txt'), Buffer.from('two\n'));
    expect(statSync(join(ws, 'a', 'b', 'new.txt')).mode & 0o777).toBe(0o755);
    await writeFileNoFollow(join(ws, 'a', 'b', 'new.txt'), Buffer.from('three\n'), { mode: (m) => (m ?? 0) & ~0o111 });
    expect(statSync(join(ws, 'a', 'b', 'new.txt')).mode & 0o777).toBe(0o644);
    expect((await readFileNoFollow(join(ws, 'a', 'b', 'new.txt'))).toString()).toBe('three\n');
    await writeFileNoFollow(join(ws, 'a', 'b', 'new.txt'), null);
    await writeFileNoFollow(join(ws, 'a', 'b', 'gone.txt'), null);
    expect(readdirSync(join(ws, 'a', 'b'))).toEqual([]);
    await writeLinkNoFollow(join(ws, 'a', 'link'), 'b');
    expect(lstatSync(join(ws, 'a', 'link')).isSymbolicLink()).toBe(true);
  });

  it('refuses a path with a link on its way (out of the workspace, or into .vscode) and writes nothing there', async () => {
    rmSync(join(ws, 'dir'), { recursive: true });
    symlinkSync(outside, join(ws, 'dir'));
    symlinkSync(join(ws, '.vscode'), join(ws, 'vs'));
    await expect(writeFileNoFollow(join(ws, 'dir', 'x.txt'), Buffer.from('x'))).rejects.toThrow(RedirectedPathError);
    await expect(writeFileNoFollow(join(ws, 'vs', 'settings.json'), Buffer.from('pwned'))).rejects.toThrow(/is now a link/);
    await expect(writeFileNoFollow(join(ws, 'dir', 'secret.txt'), null)).rejects.toThrow(RedirectedPathError);
    await expect(readFileNoFollow(join(ws, 'dir', 'secret.txt'))).rejects.toThrow(RedirectedPathError);
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'leaf.txt'));
    await expect(readFileNoFollow(join(ws, 'leaf.txt'))).rejects.toThrow(/became a link/);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
  });
});

describe('a racing process swapping the folder with links (renameat2 RENAME_EXCHANGE)', () => {
  let race: ChildProcess | undefined;
  afterEach(() => {
    race?.kill('SIGKILL');
    race = undefined;
  });

  it('never lets a write land outside the workspace or in .vscode, nor a read return what is outside', async () => {
    symlinkSync(outside, join(ws, 'out'));
    symlinkSync('.vscode', join(ws, 'vs'));
    writeFileSync(join(ws, 'dir', 'secret.txt'), 'inside\n');
    race = spawn('python3', ['-c', folderSwapRacer], { cwd: ws, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => race!.stdout!.once('data', () => resolve()));
    let written = 0;
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const path = join(ws, 'dir', i % 2 === 0 ? `note-${i}.txt` : 'settings.json');
      try {
        await writeFileNoFollow(path, Buffer.from('x\n'));
        written++;
      } catch (err) {
        if (!(err instanceof RedirectedPathError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        refused++;
      }
      try {
        expect((await readFileNoFollow(join(ws, 'dir', 'secret.txt'))).toString()).toBe('inside\n');
      } catch (err) {
        if (!(err instanceof RedirectedPathError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    race.kill('SIGKILL');
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET\n');
    expect(readdirSync(join(ws, '.vscode'))).toEqual(['settings.json']);
    expect(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
  }, 60_000);
});
