import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import { CommandSnapshots } from '../../../src/core/snapshots/commandSnapshots';
import { FileRestore } from '../../../src/core/snapshots/fileRestore';
import { sandbox, TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** The person's commands in Keel's terminals, as the editor host reports them: when each ended (undefined: still running). */
function terminalHistory(runs: Array<{ command: string; end?: number }>) {
  return (since: number) => runs.filter((r) => r.end === undefined || r.end >= since).map((r) => r.command);
}

describe('the person\u2019s own commands while one of Keel\u2019s runs', () => {
  it('are named on the command whose snapshots hold their changes; those that ended before it are not', async () => {
    const box = sandbox(dirs);
    const root = realpathSync(box.root);
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const runs: Array<{ command: string; end?: number }> = [{ command: 'git pull', end: Date.now() - 60_000 }];
    const session = box.store.create();
    const snapshots = new CommandSnapshots({
      session,
      folders: [{ name: 'app', path: root }],
      display: (p) => p.slice(root.length + 1),
      maxFileBytes: 1 << 20,
      capBytes: 50 << 20,
      log: () => undefined,
      personCommands: terminalHistory(runs),
    });
    const quiet = await snapshots.begin('call-1');
    writeFileSync(join(root, 'a.txt'), 'by keel\n');
    expect((await quiet.end()).warning).toBeUndefined();

    const busy = await snapshots.begin('call-2');
    // The person starts a formatter in another Keel terminal while Keel's command runs.
    runs.push({ command: 'npm run format' });
    writeFileSync(join(root, 'a.txt'), 'by keel, then formatted\n');
    const outcome = await busy.end();
    expect(outcome.changes.map((c) => c.displayPath)).toEqual(['a.txt']);
    expect(outcome.warning).toMatch(/you also ran `npm run format` in Keel's terminal/);
    expect(outcome.warning).not.toMatch(/git pull/);
    session.close();
  });

  it('are not undone by Undo or Restore unless the person confirms: Keel cannot tell their changes from its command’s', async () => {
    const box = sandbox(dirs);
    const root = realpathSync(box.root);
    writeFileSync(join(root, 'a.txt'), 'a before\n');
    writeFileSync(join(root, 'b.txt'), 'b before\n');
    const runs: Array<{ command: string; end?: number }> = [];
    const session = box.store.create();
    const snapshots = new CommandSnapshots({
      session,
      folders: [{ name: 'app', path: root }],
      display: (p) => p.slice(root.length + 1),
      maxFileBytes: 1 << 20,
      capBytes: 50 << 20,
      log: () => undefined,
      personCommands: terminalHistory(runs),
    });
    const restore = new FileRestore({ session, host: createFsHost(), snapshots });

    const alone = await snapshots.begin('call-1');
    writeFileSync(join(root, 'a.txt'), 'a by keel\n');
    await alone.end();
    const shared = await snapshots.begin('call-2');
    runs.push({ command: 'npm run format' });
    writeFileSync(join(root, 'b.txt'), 'b by keel or by the formatter\n');
    runs[0]!.end = Date.now();
    expect((await shared.end()).warning).toMatch(/Undo and Restore ask before putting these files back/);

    const undo = await restore.undoCall('call-2');
    expect(undo.status).toBe('conflict');
    expect(undo.message).toMatch(/b\.txt: it changed while you also ran `npm run format` in Keel's terminal/);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b by keel or by the formatter\n');
    // Restore from the first command asks too, and writes nothing, not even the file only Keel changed.
    expect((await restore.restoreFrom(['call-1'])).status).toBe('conflict');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a by keel\n');
    // The command Keel ran alone is undone at once.
    expect((await restore.undoCall('call-1')).status).toBe('reverted');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a before\n');
    // Confirmed, the shared one goes back too.
    expect((await restore.undoCall('call-2', { force: true })).status).toBe('reverted');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b before\n');
    session.close();
  });
});
