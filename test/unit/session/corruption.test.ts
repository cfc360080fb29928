import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { assistant, sandbox, TempDirs, user } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').split('\n').length;
}

describe('a damaged log', () => {
  it('skips a torn last line with a warning, and appending afterwards gives a valid log', () => {
    const { store } = sandbox(dirs);
    const first = store.create();
    first.appendMessage(user('hello'));
    first.appendMessage(assistant('hi there'));
    first.close();
    // A crash in the middle of writing the third record.
    appendFileSync(first.path, '{"type":"message","ts":"2026-01-01T00:00:00.000Z","id":"x","parentId":nu');
    const tornLine = lineCount(first.path);

    const resumed = store.open(first.id);
    expect(resumed.warnings).toHaveLength(1);
    expect(resumed.warnings[0]).toMatch(new RegExp(`^line ${tornLine}: the last record is incomplete`));
    expect(resumed.history()).toEqual([user('hello'), assistant('hi there')]);
    resumed.appendMessage(user('still there?'));
    resumed.close();

    const lines = readFileSync(first.path, 'utf8').split('\n');
    expect(JSON.parse(lines[tornLine]!)).toMatchObject({ type: 'message', message: user('still there?') });

    const again = store.open(first.id);
    expect(again.history()).toEqual([user('hello'), assistant('hi there'), user('still there?')]);
    expect(again.warnings).toEqual([expect.stringMatching(new RegExp(`^line ${tornLine}: not valid JSON`))]);
    again.close();
  });

  it('skips a malformed line in the middle, naming its line, and keeps what follows', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('one'));
    s.appendMessage(assistant('two'));
    s.appendMessage(user('three'));
    s.appendMessage(assistant('four'));
    s.close();
    const lines = readFileSync(s.path, 'utf8').split('\n');
    // Line 4 held "three": garble it so its child loses its parent.
    lines[3] = '{"type":"message", garbage';
    writeFileSync(s.path, lines.join('\n'));

    const resumed = store.open(s.id);
    expect(resumed.warnings[0]).toMatch(/^line 4: not valid JSON/);
    expect(resumed.warnings[1]).toMatch(/^line 5: .*missing; attached after the previous message/);
    expect(resumed.history()).toEqual([user('one'), assistant('two'), assistant('four')]);
    resumed.close();
  });

  it('skips a record of a type it does not know, and an unknown config key, without losing the rest', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('one'));
    s.close();
    appendFileSync(s.path, '{"type":"bookmark","ts":"2030-01-01T00:00:00.000Z","label":"later"}\n');
    appendFileSync(s.path, '{"type":"config","ts":"2030-01-01T00:00:00.000Z","key":"theme","value":"dark"}\n');
    appendFileSync(s.path, '{"type":"usage","ts":"2030-01-01T00:00:00.000Z","inputTokens":-5,"outputTokens":1}\n');

    const resumed = store.open(s.id);
    expect(resumed.warnings).toEqual([
      expect.stringMatching(/^line 3: unknown record type "bookmark"/),
      expect.stringMatching(/^line 4: unknown config key "theme"/),
      expect.stringMatching(/^line 5: invalid "usage" record \(inputTokens:/),
    ]);
    expect(resumed.history()).toEqual([user('one')]);
    expect(resumed.usageTotals()).toEqual({ inputTokens: 0, outputTokens: 0 });
    resumed.appendMessage(assistant('two'));
    expect(resumed.history()).toEqual([user('one'), assistant('two')]);
    resumed.close();
  });

  it('reads a log whose header line was lost', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('one'));
    s.close();
    const lines = readFileSync(s.path, 'utf8').split('\n');
    writeFileSync(s.path, ['not json', ...lines.slice(1)].join('\n'));

    const resumed = store.open(s.id);
    expect(resumed.warnings).toEqual([
      'the session header is missing; the log was read without it',
      expect.stringMatching(/^line 1: not valid JSON/),
    ]);
    expect(resumed.history()).toEqual([user('one')]);
    resumed.close();
  });
});
