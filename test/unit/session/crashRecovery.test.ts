import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSessionLog } from '../../../src/core/session/logReader';
import { sandbox, TempDirs, user } from './sessionFixtures';
import { bundleWorker, exited, firstLine, grownTo, startWorker } from './workerProcess';

const dirs = new TempDirs();
const scriptDirs = new TempDirs();
let worker = '';
beforeAll(async () => {
  worker = await bundleWorker(scriptDirs.make('keel-session-worker-'));
  return () => scriptDirs.cleanup();
});
afterEach(() => dirs.cleanup());

async function killed(child: ReturnType<typeof startWorker>): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
}

describe('a process killed mid-run', () => {
  it('leaves a log whose next opening closes the run, gives the cut tool calls a result and says what was cut', async () => {
    const { store, home, root } = sandbox(dirs);
    const child = startWorker(worker, ['midRun', home, root, '2']);
    const id = await firstLine(child);
    await killed(child);

    const resumed = store.open(id);
    expect(resumed.readOnly).toBe(false);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.recovered).toMatch(/Keel stopped before the previous request finished.*tool calls \(bash\) did not finish/);
    const history = resumed.history();
    // Every call has a result now, so the next request is valid; the note follows until a prompt takes it.
    expect(history.at(-1)).toEqual({ role: 'user', content: resumed.recovered });
    expect(history.at(-2)).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'call_0', output: { type: 'error-text', value: expect.stringMatching(/Keel stopped before this call finished/) } },
        { toolCallId: 'call_1', output: { type: 'error-text' } },
      ],
    });
    const cut = resumed.entries().at(-1);
    expect(cut).toMatchObject({ kind: 'message', interruption: { note: expect.stringMatching(/did not finish/) } });

    // The model hears about it with the next prompt (one user turn, not two in a row).
    resumed.appendMessage(user('did they pass?'));
    const next = resumed.history().at(-1)!;
    expect(next.role).toBe('user');
    expect(JSON.stringify(next.content)).toMatch(/Keel stopped before the previous request finished.*did they pass\?/);
    resumed.close();

    // Recovery happens once: the run is closed in the log.
    const again = store.open(id);
    expect(again.recovered).toBeUndefined();
    expect(again.history()).toEqual(resumed.history());
    again.close();
  });

  it('says the reply was cut off when Keel stopped before answering', async () => {
    const { store, home, root } = sandbox(dirs);
    const child = startWorker(worker, ['midRun', home, root, '0']);
    const id = await firstLine(child);
    await killed(child);
    const resumed = store.open(id);
    expect(resumed.recovered).toMatch(/the reply to the message above was cut off/);
    expect(resumed.history()).toEqual([user('please run the tests'), { role: 'user', content: resumed.recovered }]);
    resumed.close();
  });

  it('is not mistaken for a crash while the other process is alive: the session opens read-only and nothing is appended', async () => {
    const { store, home, root } = sandbox(dirs);
    const child = startWorker(worker, ['midRun', home, root, '1']);
    const id = await firstLine(child);
    try {
      const before = readFileSync(store.logPath(id), 'utf8');
      const second = store.open(id);
      expect(second.readOnly).toBe(true);
      expect(second.readOnlyReason).toMatch(new RegExp(`another Keel process \\(pid ${child.pid}\\)`));
      expect(second.recovered).toBeUndefined();
      expect(readFileSync(store.logPath(id), 'utf8')).toBe(before);
      second.close();
    } finally {
      await killed(child);
    }
  });

  it('killed while appending as fast as it can: at most the last line is torn, and the log resumes and takes appends', async () => {
    const { store, home, root } = sandbox(dirs);
    const child = startWorker(worker, ['flood', home, root, '200000']);
    const id = await firstLine(child);
    // Let it write a few 200 KB lines (only the last can be torn), then kill it wherever it is.
    await grownTo(store.logPath(id), 5 * 200_000);
    await killed(child);

    const text = readFileSync(store.logPath(id), 'utf8');
    const parsed = parseSessionLog(text);
    expect(parsed.warnings.length).toBeLessThanOrEqual(1);
    if (parsed.warnings.length) expect(parsed.warnings[0]!.message).toMatch(/the last record is incomplete/);
    const complete = parsed.records.filter((r) => r.record.type === 'message').length;
    expect(complete).toBeGreaterThan(1);

    const resumed = store.open(id);
    expect(resumed.recovered).toMatch(/cut off/);
    expect(resumed.history()).toHaveLength(complete + 1);
    resumed.appendMessage(user('still there?'));
    resumed.close();
    const reread = store.open(id);
    expect(reread.warnings.length).toBe(parsed.warnings.length);
    expect(JSON.stringify(reread.history().at(-1))).toContain('still there?');
    reread.close();
  });
});

describe('two processes appending to one log file at once', () => {
  it('never interleave or tear lines (each record is one O_APPEND write)', async () => {
    const dir = dirs.make();
    const log = join(dir, 'shared.jsonl');
    const count = 400;
    const children = ['alpha', 'beta'].map((tag) => startWorker(worker, ['rawAppend', log, tag, String(count)]));
    await Promise.all(children.map((c) => firstLine(c)));
    expect(await Promise.all(children.map((c) => exited(c)))).toEqual([0, 0]);
    const parsed = parseSessionLog(readFileSync(log, 'utf8'));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.records).toHaveLength(2 * count);
    for (const tag of ['alpha', 'beta']) {
      const mine = parsed.records.flatMap((r) => (r.record.type === 'usage' && r.record.model?.startsWith(`${tag} `) ? [r.record.inputTokens] : []));
      expect(mine).toEqual(Array.from({ length: count }, (_, i) => i));
    }
  });
});
