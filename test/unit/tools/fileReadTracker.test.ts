import { mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileReadTracker, StaleFileError } from '../../../src/core/tools/fileReadTracker';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'keel-reads-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const old = new Date('2020-01-01T00:00:00Z');

describe('FileReadTracker', () => {
  it('refuses a file that was never read', async () => {
    const path = join(dir, 'a.txt');
    await writeFile(path, 'x');
    await expect(new FileReadTracker().assertFresh(path)).rejects.toThrow(/has not been read/);
  });

  it('accepts an unchanged file and refuses one whose content changed', async () => {
    const path = join(dir, 'a.txt');
    await writeFile(path, 'one');
    const reads = new FileReadTracker();
    await reads.record(path, Buffer.from('one'));
    await expect(reads.assertFresh(path)).resolves.toBeUndefined();
    await writeFile(path, 'two');
    await expect(reads.assertFresh(path)).rejects.toThrow(StaleFileError);
    await expect(reads.assertFresh(path)).rejects.toThrow(/Read it again first/);
  });

  it('catches a same-size change made within the timestamp granularity of the read', async () => {
    const path = join(dir, 'racy.txt');
    await writeFile(path, 'cccc');
    const now = new Date();
    await utimes(path, now, now);
    const reads = new FileReadTracker();
    await reads.record(path, 'cccc');
    // A coarse file system gives the change the same mtime; size is equal too.
    await writeFile(path, 'dddd');
    await utimes(path, now, now);
    await expect(reads.assertFresh(path)).rejects.toThrow(StaleFileError);
  });

  it('treats a touched file with the same content as fresh', async () => {
    const path = join(dir, 'a.txt');
    await writeFile(path, 'same');
    await utimes(path, old, old);
    const reads = new FileReadTracker();
    await reads.record(path, Buffer.from('same'));
    const later = new Date('2021-01-01T00:00:00Z');
    await utimes(path, later, later);
    await expect(reads.assertFresh(path)).resolves.toBeUndefined();
  });

  it('records what is on disk when the content given does not match its size', async () => {
    const path = join(dir, 'a.txt');
    await writeFile(path, 'reformatted by the editor\n');
    const reads = new FileReadTracker();
    await reads.record(path, 'what the agent wrote');
    await expect(reads.assertFresh(path)).resolves.toBeUndefined();
  });

  it('forgets a file', async () => {
    const path = join(dir, 'a.txt');
    await writeFile(path, 'x');
    const reads = new FileReadTracker();
    await reads.record(path, 'x');
    expect(reads.has(path)).toBe(true);
    reads.forget(path);
    expect(reads.has(path)).toBe(false);
  });
});
