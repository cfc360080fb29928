import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitBlobId } from '../../../src/core/snapshots/gitBlobId';
import { scanPack } from '../../../src/core/snapshots/packScan';
import { TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('reading a pack that git add wrote', () => {
  it('gives every object its type and size, and a NUL in the first 8,000 bytes (only there) makes a blob binary', async () => {
    const dir = dirs.make();
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    const files: Record<string, Buffer> = {
      'text.txt': Buffer.from('plain text\n'.repeat(3000)),
      'nul-early.bin': Buffer.concat([Buffer.alloc(7999, 0x61), Buffer.from([0]), Buffer.alloc(100, 0x62)]),
      'nul-late.txt': Buffer.concat([Buffer.alloc(8000, 0x61), Buffer.from([0]), Buffer.alloc(50_000, 0x62)]),
      // Bytes that do not compress: the stream is longer than what it decodes to.
      'random.dat': Buffer.from(Array.from({ length: 40_000 }, (_, i) => ((i * 2654435761) >>> 13) & 0xff || 1)),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(ws, name), bytes);
    const env = { ...process.env, GIT_DIR: join(dir, 'git'), GIT_INDEX_FILE: join(dir, 'index'), GIT_WORK_TREE: ws };
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'git')], { env: { ...process.env } });
    execFileSync('git', ['-c', 'core.bare=false', '-c', 'core.bigFileThreshold=1', 'add', '-A'], { cwd: ws, env });
    const packs = readdirSync(join(dir, 'git', 'objects', 'pack')).filter((n) => n.endsWith('.pack'));
    expect(packs).toHaveLength(1);
    const heads = await scanPack(join(dir, 'git', 'objects', 'pack', packs[0]!.slice(0, -5)));
    expect(heads).toBeDefined();
    const byName = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, heads!.get(gitBlobId(bytes))]));
    expect(byName).toEqual({
      'text.txt': { type: 'blob', size: files['text.txt']!.length, binary: false },
      'nul-early.bin': { type: 'blob', size: 8100, binary: true },
      'nul-late.txt': { type: 'blob', size: 58_001, binary: false },
      'random.dat': { type: 'blob', size: 40_000, binary: false },
    });
    expect(heads!.size).toBe(4);
  });
});
