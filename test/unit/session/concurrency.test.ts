import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, TempDirs } from './sessionFixtures';
import { bundleWorker, exited, firstLine, startWorker } from './workerProcess';

const dirs = new TempDirs();
const scriptDirs = new TempDirs();
let worker = '';
beforeAll(async () => {
  worker = await bundleWorker(scriptDirs.make('keel-session-worker-'));
  return () => scriptDirs.cleanup();
});
afterEach(() => dirs.cleanup());

describe('two processes writing sessions of the same workspace', () => {
  it('produce valid, complete logs and a correct listing', async () => {
    const { store, home, root } = sandbox(dirs);
    const count = 300;
    const children = [0, 1].map(() => startWorker(worker, ['append', home, root, String(count)]));
    const ids = await Promise.all(children.map((c) => firstLine(c)));
    const codes = await Promise.all(children.map((c) => exited(c)));
    expect(codes).toEqual([0, 0]);
    expect(new Set(ids).size).toBe(2);

    for (const [i, id] of ids.entries()) {
      const s = store.open(id);
      expect(s.warnings).toEqual([]);
      const history = s.history();
      expect(history).toHaveLength(count);
      const pid = children[i]!.pid;
      history.forEach((m, n) => expect(String(m.content).startsWith(`${pid} message ${n} `)).toBe(true));
      expect(s.usageTotals()).toEqual({ inputTokens: count, outputTokens: count });
      s.close();
      for (const line of readFileSync(s.path, 'utf8').trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    }
    const listed = store.list();
    expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
    for (const s of listed) expect(s).toMatchObject({ messageCount: count, usage: { inputTokens: count, outputTokens: count } });
  });
});
