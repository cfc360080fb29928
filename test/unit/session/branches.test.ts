import { afterEach, describe, expect, it } from 'vitest';
import { compactionNote } from '../../../src/core/session/modelNotes';
import { assistant, sandbox, TempDirs, user } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('compaction', () => {
  it('replaces the branch up to a message with its summary, in history and after a resume', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('q1'));
    const a1 = s.appendMessage(assistant('a1'));
    s.appendMessage(user('q2'));
    s.appendMessage(assistant('a2'));
    const compactionId = s.appendCompaction('We talked about q1.', a1);
    const expected = [user(compactionNote('We talked about q1.')), user('q2'), assistant('a2')];
    expect(s.history()).toEqual(expected);
    s.appendMessage(user('q3'));
    expect(s.history()).toEqual([...expected, user('q3')]);
    s.close();

    const resumed = store.open(s.id);
    expect(resumed.history()).toEqual([...expected, user('q3')]);
    const kinds = resumed.entries().map((e) => (e.kind === 'message' ? e.message.content : `[${e.kind}] ${e.summary}`));
    // Shown where it ran (after a2), not where its summary ends.
    expect(kinds).toEqual(['q1', 'a1', 'q2', 'a2', '[compaction] We talked about q1.', 'q3']);
    expect(resumed.entries()[4]).toMatchObject({ kind: 'compaction', id: compactionId, replacesUpTo: a1 });
    resumed.close();
  });

  it('uses the latest compaction on the branch', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const q1 = s.appendMessage(user('q1'));
    s.appendMessage(assistant('a1'));
    const q2 = s.appendMessage(user('q2'));
    s.appendMessage(assistant('a2'));
    s.appendCompaction('summary of q1', q1);
    s.appendCompaction('summary of q1..q2', q2);
    expect(s.history()).toEqual([user(compactionNote('summary of q1..q2')), assistant('a2')]);
    s.close();
  });

  it('ignores a compaction made on another branch', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const q1 = s.appendMessage(user('q1'));
    const a1 = s.appendMessage(assistant('a1'));
    s.appendCompaction('summary of the first branch', a1);
    s.fork(q1);
    s.appendMessage(assistant('another a1'));
    expect(s.history()).toEqual([user('q1'), assistant('another a1')]);
    s.close();
  });

  it('refuses a compaction of an unknown message', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    expect(() => s.appendCompaction('x', 'no-such-id')).toThrow(/no message no-such-id/);
    s.close();
  });
});

describe('forks', () => {
  it('branches the next append from the forked message, and resumes on that branch', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const q1 = s.appendMessage(user('q1'));
    s.appendMessage(assistant('a1'));
    s.appendMessage(user('q2'));
    const a2 = s.appendMessage(assistant('a2'));
    s.fork(q1);
    expect(s.history()).toEqual([user('q1')]);
    s.appendMessage(assistant('a1, take two'));
    expect(s.history()).toEqual([user('q1'), assistant('a1, take two')]);
    s.close();

    const resumed = store.open(s.id);
    expect(resumed.history()).toEqual([user('q1'), assistant('a1, take two')]);
    resumed.fork(a2);
    expect(resumed.history()).toEqual([user('q1'), assistant('a1'), user('q2'), assistant('a2')]);
    resumed.close();

    const back = store.open(s.id);
    expect(back.history()).toEqual([user('q1'), assistant('a1'), user('q2'), assistant('a2')]);
    expect(back.summary().messageCount).toBe(4);
    back.close();
  });

  it('starts a new root after a fork to the start (the first prompt was edited)', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('first try'));
    s.appendMessage(assistant('answer'));
    s.fork(null);
    expect(s.history()).toEqual([]);
    const root = s.appendMessage(user('second try'));
    expect(s.entries()).toEqual([expect.objectContaining({ id: root, parentId: null })]);
    s.close();
    const resumed = store.open(s.id);
    expect(resumed.history()).toEqual([user('second try')]);
    resumed.close();
  });

  it('refuses to fork from an unknown message', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('q1'));
    expect(() => s.fork('nope')).toThrow(/no message nope/);
    expect(s.history()).toEqual([user('q1')]);
    s.close();
  });
});
