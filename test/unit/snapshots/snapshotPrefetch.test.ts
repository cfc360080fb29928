import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandSnapshots, snapshotDir } from '../../../src/core/snapshots/commandSnapshots';
import { sandbox, TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('the first snapshot taken while the model writes its first command', () => {
  it('warms the store only: a change made after it and before the command is not the command\u2019s', async () => {
    const box = sandbox(dirs);
    const root = realpathSync(box.root);
    for (let i = 0; i < 50; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    const session = box.store.create();
    const snapshots = new CommandSnapshots({ session, folders: [{ name: 'app', path: root }], display: (p) => p.slice(root.length + 1), maxFileBytes: 1 << 20, capBytes: 50 << 20, log: () => undefined });
    snapshots.prefetch();
    await snapshots.settle();
    expect(existsSync(snapshotDir(session.path))).toBe(true);
    writeFileSync(join(root, 'f1.txt'), 'edited by the person before the command\n');
    const bracket = await snapshots.begin('call-1');
    writeFileSync(join(root, 'f2.txt'), 'by the command\n');
    const outcome = await bracket.end();
    expect(outcome.changes.map((c) => [c.displayPath, c.kind])).toEqual([['f2.txt', 'modified']]);
    session.close();
  });
});
