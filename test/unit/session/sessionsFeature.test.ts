import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelMessage } from 'ai';
import { exportFileName, exportSource, sessionToJson, sessionToMarkdown } from '../../../src/core/session/sessionExport';
import { cleanTitle } from '../../../src/core/session/sessionTitle';
import { assistant, sandbox, TempDirs, user } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => {
  vi.useRealTimers();
  dirs.cleanup();
});

function at(iso: string): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

describe('searching and paging the sessions list', () => {
  it('finds sessions by the text of any message, not only the title, and ignores JSON keys and ids', () => {
    const { store } = sandbox(dirs);
    const a = store.create();
    a.appendMessage(user('Add a dark theme'));
    a.appendMessage(assistant('I changed the palette to use **midnight** blue.'));
    const b = store.create();
    b.appendMessage(user('Why is CI red?'));
    b.appendMessage({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'npm test -- --grep flaky' } }] });
    b.appendMessage({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value: 'Expected 3 to equal 4 in quaternion.test.ts' } }] });
    expect(store.list({ query: 'MIDNIGHT' }).map((s) => s.id)).toEqual([a.id]);
    expect(store.list({ query: 'flaky' }).map((s) => s.id)).toEqual([b.id]);
    expect(store.list({ query: 'quaternion' }).map((s) => s.id)).toEqual([b.id]);
    // Words that only occur in the log's structure match nothing.
    expect(store.list({ query: 'toolCallId' })).toEqual([]);
    expect(store.list({ query: 'parentId' })).toEqual([]);
    expect(store.list({ query: a.id })).toEqual([]);
    // A text with quotes is found as written, though the log stores it escaped.
    a.appendMessage(user('rename "foo" to bar'));
    expect(store.list({ query: '"foo" to' }).map((s) => s.id)).toEqual([a.id]);
    a.close();
    b.close();
  });

  it('pages newest first without gaps or repeats', () => {
    const { store } = sandbox(dirs);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      at(`2026-03-0${i + 1}T10:00:00.000Z`);
      const s = store.create();
      s.appendMessage(user(`question ${i}`));
      ids.push(s.id);
      s.close();
    }
    const newestFirst = [...ids].reverse();
    const pages = [0, 3, 6].map((offset) => store.list({ offset, limit: 3 }).map((s) => s.id));
    expect(pages).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6)]);
  });

  it('renames a stored session; the list and a resume show the new title; an empty one goes back to the prompt', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('Refactor the parser'));
    s.close();
    expect(store.rename(s.id, '  Parser rewrite ').title).toBe('Parser rewrite');
    expect(store.list()[0]?.title).toBe('Parser rewrite');
    expect(store.list({ query: 'rewrite' }).map((x) => x.id)).toEqual([s.id]);
    store.rename(s.id, '');
    expect(store.list()[0]?.title).toBe('Refactor the parser');
  });

  it('refuses to rename a session another holder is writing', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('busy'));
    // This process holds the lock through `s`: a second opener gets it read-only.
    expect(() => store.rename(s.id, 'x')).toThrow(/read-only/);
    s.close();
  });
});

describe('forks: Edit and resend, and switching branches', () => {
  it('keeps both branches, sends only the active one, and switches back to where the old one stopped', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const q1 = s.appendMessage(user('first question'));
    s.appendMessage(assistant('first answer'));
    const q2 = s.appendMessage(user('make it blue'));
    s.appendMessage(assistant('it is blue'));
    s.appendMessage(user('and bigger'));
    s.appendMessage(assistant('bigger blue'));

    // Edit and resend of q2: fork from its parent, the edited prompt becomes its sibling.
    s.fork(s.parentOf(q2));
    const q2b = s.appendMessage(user('make it green'));
    s.appendMessage(assistant('it is green'));
    expect(s.history()).toEqual([user('first question'), assistant('first answer'), user('make it green'), assistant('it is green')]);
    const points = s.branchPoints();
    expect(points.get(q2b)).toMatchObject({ index: 2, count: 2, siblings: [q2, q2b] });
    expect(points.has(q1)).toBe(false);

    s.switchBranch(q2);
    expect(s.history().map((m) => m.content)).toEqual(['first question', 'first answer', 'make it blue', 'it is blue', 'and bigger', 'bigger blue']);
    expect(s.branchPoints().get(q2)).toMatchObject({ index: 1, count: 2 });
    s.close();

    // The log keeps both; a resume comes back on the branch chosen last.
    const resumed = store.open(s.id);
    expect(resumed.history().at(-1)).toEqual(assistant('bigger blue'));
    resumed.switchBranch(q2b);
    expect(resumed.history().at(-1)).toEqual(assistant('it is green'));
    resumed.close();
  });

  it('forks the very first prompt into a new root', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    const q1 = s.appendMessage(user('hello'));
    s.appendMessage(assistant('hi'));
    s.fork(s.parentOf(q1));
    const q1b = s.appendMessage(user('hello again'));
    expect(s.history()).toEqual([user('hello again')]);
    expect(s.branchPoints().get(q1b)).toMatchObject({ index: 2, count: 2 });
    s.close();
  });
});

describe('export', () => {
  function sampleSession() {
    const { store, root } = sandbox(dirs);
    const s = store.create();
    s.appendMessage(user('Fix the greeting in src/app.ts'));
    const call: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will change the greeting.' },
        { type: 'tool-call', toolCallId: 'e1', toolName: 'edit', input: { file_path: 'src/app.ts', old_string: "say('hi')", new_string: "say('hello')" } },
        { type: 'tool-call', toolCallId: 'b1', toolName: 'bash', input: { command: 'npm test' } },
      ],
    };
    s.appendMessage(call, { model: 'scripted/model-a' });
    s.appendMessage({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'e1', toolName: 'edit', output: { type: 'text', value: 'Edited src/app.ts' } },
        { type: 'tool-result', toolCallId: 'b1', toolName: 'bash', output: { type: 'error-text', value: 'exit 1\n```boom```' } },
      ],
    });
    s.appendMessage(assistant('Done: the greeting now says hello.'));
    s.appendUsage({ inputTokens: 120, outputTokens: 30 });
    return { s, root };
  }

  it('writes a readable Markdown transcript with the tool calls, their results and the edit as a diff', () => {
    const { s, root } = sampleSession();
    const md = sessionToMarkdown(exportSource(s));
    expect(md).toMatch(/^# Fix the greeting in src\/app\.ts\n/);
    expect(md).toContain(`- Workspace: \`${root}\``);
    expect(md).toContain('- Tokens: 150 (120 in, 30 out)');
    expect(md).toMatch(/## You · .*\n\nFix the greeting in src\/app\.ts/);
    expect(md).toMatch(/## Keel \(scripted\/model-a\) · .*\n\nI will change the greeting\./);
    expect(md).toContain("**Tool `edit`** `src/app.ts`\n\n```diff\n-say('hi')\n+say('hello')\n```\n\nResult:\n\n```\nEdited src/app.ts\n```");
    // A result holding a fence gets a longer one, so the transcript stays well-formed.
    expect(md).toContain('**Tool `bash`**\n\n```sh\nnpm test\n```\n\nResult (error):\n\n````\nexit 1\n```boom```\n````');
    expect(md).toContain('Done: the greeting now says hello.');
    // Results appear under their call, not as a message of their own.
    expect(md.match(/^## /gm)).toHaveLength(3);
    s.close();
  });

  it('writes JSON of the active branch that reads back to the same messages', () => {
    const { s } = sampleSession();
    const doc = JSON.parse(sessionToJson(exportSource(s))) as { format: string; id: string; usage: unknown; entries: Array<{ kind: string; message?: ModelMessage; meta?: unknown }> };
    expect(doc.format).toBe('keel-session');
    expect(doc.id).toBe(s.id);
    expect(doc.usage).toEqual({ inputTokens: 120, outputTokens: 30 });
    expect(doc.entries.map((e) => e.message)).toEqual(s.history());
    expect(doc.entries[1]?.meta).toEqual({ model: 'scripted/model-a' });
    s.close();
  });

  it('names export files after the title', () => {
    expect(exportFileName({ id: 's1', title: 'Fix the greeting: src/app.ts!' }, 'md')).toBe('fix-the-greeting-src-app-ts.md');
    expect(exportFileName({ id: 's1', title: '' }, 'json')).toBe('keel-session-s1.json');
  });
});

describe('generated titles', () => {
  it('keeps the first line, without quotes, labels or a final period', () => {
    expect(cleanTitle('"Fix login redirect."\n')).toBe('Fix login redirect');
    expect(cleanTitle('Title: **Dark theme palette**')).toBe('Dark theme palette');
    expect(cleanTitle('\n\n  # Parser streaming  \nmore')).toBe('Parser streaming');
    expect(cleanTitle('  \n')).toBeUndefined();
    expect(Array.from(cleanTitle('x'.repeat(200)) ?? '')).toHaveLength(80);
  });
});
