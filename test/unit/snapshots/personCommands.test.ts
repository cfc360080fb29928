import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandSnapshots } from '../../../src/core/snapshots/commandSnapshots';
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
});
