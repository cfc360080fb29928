import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionNotFoundError, SessionLockedError } from '../../../src/core/session/sessionErrors';
import { SessionStore } from '../../../src/core/session/sessionStore';
import { summaryPath } from '../../../src/core/session/sessionSummary';
import { assistant, sandbox, TempDirs, user } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => {
  vi.useRealTimers();
  dirs.cleanup();
});

/** Pins the clock so "newest first" does not depend on how fast the test runs. */
function at(iso: string): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

describe('listing sessions', () => {
  it('lists newest activity first, with title, times, message count and usage', () => {
    const { store } = sandbox(dirs);
    at('2026-03-01T10:00:00.000Z');
    const old = store.create();
    old.appendMessage(user('Refactor the parser\nso that it streams'));
    at('2026-03-02T10:00:00.000Z');
    const mid = store.create();
    mid.appendMessage(user('Add a dark theme'));
    mid.appendMessage(assistant('Done.'));
    mid.appendUsage({ inputTokens: 100, outputTokens: 20 });
    mid.appendUsage({ inputTokens: 50, outputTokens: 5 });
    at('2026-03-03T10:00:00.000Z');
    const recent = store.create();
    recent.appendMessage(user('Why is CI red?'));
    expect(store.list().map((s) => s.id)).toEqual([recent.id, mid.id, old.id]);

    // Activity on the oldest session brings it to the top.
    at('2026-03-04T10:00:00.000Z');
    old.appendMessage(assistant('Here is a streaming parser.'));
    const list = store.list();
    expect(list.map((s) => s.id)).toEqual([old.id, recent.id, mid.id]);
    expect(list[0]).toEqual({
      id: old.id,
      title: 'Refactor the parser',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-04T10:00:00.000Z',
      messageCount: 2,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(list[2]).toMatchObject({ title: 'Add a dark theme', messageCount: 2, usage: { inputTokens: 150, outputTokens: 25 } });
    for (const s of [old, mid, recent]) s.close();
  });

  it('prefers a title config record over the first prompt, and cuts long prompts to ~80 chars', () => {
    const { store } = sandbox(dirs);
    const titled = store.create();
    titled.appendMessage(user('please look at this'));
    titled.appendConfig('title', 'Investigate flaky tests');
    const long = store.create();
    long.appendMessage({ role: 'user', content: [{ type: 'text', text: `\n  ${'word '.repeat(40)}\nsecond line` }] });
    const titles = new Map(store.list().map((s) => [s.id, s.title]));
    expect(titles.get(titled.id)).toBe('Investigate flaky tests');
    const cut = titles.get(long.id)!;
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.startsWith('word word')).toBe(true);
    titled.close();
    long.close();
  });

  it('pages with limit and offset and filters by a case-insensitive query on the title', () => {
    const { store } = sandbox(dirs);
    const ids: string[] = [];
    const titles = ['Fix login bug', 'Write docs', 'fix LOGOUT crash', 'Bump deps', 'Login page styling'];
    titles.forEach((title, i) => {
      at(`2026-05-0${i + 1}T00:00:00.000Z`);
      const s = store.create();
      s.appendMessage(user(title));
      ids.push(s.id);
      s.close();
    });
    const newestFirst = [...ids].reverse();
    expect(store.list({ limit: 2 }).map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(store.list({ limit: 2, offset: 2 }).map((s) => s.id)).toEqual(newestFirst.slice(2, 4));
    expect(store.list({ offset: 4 }).map((s) => s.id)).toEqual(newestFirst.slice(4));
    expect(store.list({ offset: 10 })).toEqual([]);
    expect(store.list({ query: 'LOGIN' }).map((s) => s.title)).toEqual(['Login page styling', 'Fix login bug']);
    expect(store.list({ query: 'fix', limit: 1 }).map((s) => s.title)).toEqual(['fix LOGOUT crash']);
    expect(store.list({ query: 'nothing like this' })).toEqual([]);
  });

  it('keeps the sessions of two workspaces apart, even with the same folder name', () => {
    const a = sandbox(dirs, 'app');
    const otherRoot = join(dirs.make(), 'app');
    mkdirSync(otherRoot);
    const b = new SessionStore({ home: a.home, workspace: { root: otherRoot } });
    const sa = a.store.create();
    sa.appendMessage(user('in a'));
    const sb = b.create();
    sb.appendMessage(user('in b'));
    expect(a.store.list().map((s) => s.title)).toEqual(['in a']);
    expect(b.list().map((s) => s.title)).toEqual(['in b']);
    expect(b.exists(sa.id)).toBe(false);
    expect(() => b.open(sa.id)).toThrow(SessionNotFoundError);
    sa.close();
    sb.close();
  });

  it('is empty for a workspace that never had a session', () => {
    const { store } = sandbox(dirs);
    expect(store.list()).toEqual([]);
  });

  it('rebuilds a summary that is missing or out of date with its log', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('first'));
    s.close();
    rmSync(summaryPath(s.path));
    expect(store.list()[0]).toMatchObject({ id: s.id, title: 'first', messageCount: 1 });
    expect(existsSync(summaryPath(s.path))).toBe(true);

    // A crash after the log append but before the summary update.
    const parent = store.open(s.id, { readOnly: true }).leafId;
    appendFileSync(
      s.path,
      `${JSON.stringify({ type: 'message', ts: '2030-01-01T00:00:00.000Z', id: 'm2', parentId: parent, message: assistant('second') })}\n`,
    );
    expect(store.list()[0]).toMatchObject({ messageCount: 2, updatedAt: '2030-01-01T00:00:00.000Z' });

    writeFileSync(summaryPath(s.path), '{"version":1,"id":');
    expect(store.list()[0]).toMatchObject({ messageCount: 2, title: 'first' });
  });
});

describe('exists, open and delete', () => {
  it('names the id and the workspace when a session is not found', () => {
    const { store, root } = sandbox(dirs);
    expect(() => store.open('20260101-000000-deadbeef')).toThrow(SessionNotFoundError);
    expect(() => store.open('20260101-000000-deadbeef')).toThrow(`No session "20260101-000000-deadbeef" in workspace ${root}`);
  });

  it('never turns an id into a path outside the sessions folder', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.close();
    const sneaky = `../sessions/${s.id}`;
    expect(store.exists(sneaky)).toBe(false);
    expect(() => store.open(sneaky)).toThrow(SessionNotFoundError);
    expect(() => store.delete(sneaky)).toThrow(SessionNotFoundError);
    expect(store.exists(s.id)).toBe(true);
  });

  it('deletes a closed session and all its files, but refuses one still open', () => {
    const { store } = sandbox(dirs);
    const keep = store.create();
    keep.appendMessage(user('keep me'));
    keep.close();
    const s = store.create();
    s.appendMessage(user('delete me'));
    expect(() => store.delete(s.id)).toThrow(SessionLockedError);
    expect(store.exists(s.id)).toBe(true);
    s.close();
    store.delete(s.id);
    expect(store.exists(s.id)).toBe(false);
    expect(store.list().map((x) => x.id)).toEqual([keep.id]);
    expect(readdirSync(store.dir).filter((f) => f.startsWith(s.id))).toEqual([]);
  });
});
