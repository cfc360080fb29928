import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PlanBook } from '../../../src/core/plan/planBook';
import { parseSessionLog } from '../../../src/core/session/logReader';
import { assistant, sandbox, TempDirs, user } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('plan records in the session log', () => {
  it('keep the latest version of each plan across a resume; the file follows an edit', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('plan it'));
    const answer = s.appendMessage(assistant('## Steps\n1. a'));
    const book = new PlanBook(s);
    const plan = book.record(answer, '## Steps\n1. a');
    writeFileSync(book.filePath(plan.id), '## Steps\n1. a\n2. b');
    expect(book.sync(plan.id)).toMatchObject({ status: 'edited', text: '## Steps\n1. a\n2. b', messageId: answer });
    // Syncing again with no new edit records nothing.
    const lines = readFileSync(s.path, 'utf8').trim().split('\n').length;
    book.sync(plan.id);
    expect(readFileSync(s.path, 'utf8').trim().split('\n').length).toBe(lines);
    book.settle(plan.id, 'executed');
    expect(() => book.settle(plan.id, 'discarded')).toThrow(/already executed/);
    s.close();

    const resumed = store.open(s.id);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.plans()).toEqual([expect.objectContaining({ id: 'plan-1', status: 'executed', text: '## Steps\n1. a\n2. b' })]);
    // An edit to an executed plan's file changes nothing: the log keeps what ran.
    writeFileSync(new PlanBook(resumed).filePath('plan-1'), 'changed later');
    expect(new PlanBook(resumed).sync('plan-1').text).toBe('## Steps\n1. a\n2. b');
    resumed.close();
  });

  it('a log from before plans reads as before, with no plans', () => {
    const old = [
      '{"type":"session","ts":"2026-01-01T00:00:00.000Z","version":1,"id":"s1","workspaceRoot":"/w","workspaceKey":"w-1","cwd":"/w"}',
      '{"type":"message","ts":"2026-01-01T00:00:01.000Z","id":"m1","parentId":null,"message":{"role":"user","content":"hi"}}',
    ].join('\n');
    const parsed = parseSessionLog(`${old}\n`);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.records.map((r) => r.record.type)).toEqual(['session', 'message']);
  });

  it('refuses a plan record that is not well formed, naming the line', () => {
    const bad = '{"type":"plan","ts":"2026-01-01T00:00:02.000Z","id":"plan-1","messageId":"m1","status":"maybe","text":"x"}';
    const parsed = parseSessionLog(`${bad}\n`);
    expect(parsed.records).toEqual([]);
    expect(parsed.warnings[0]?.message).toMatch(/^line 1: /);
  });

  it('only names plan files inside the session folder', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    expect(() => new PlanBook(s).filePath('../../etc/passwd')).toThrow(/not a plan id/);
    s.close();
  });
});
