import { readFileSync } from 'node:fs';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../../src/core/session/sessionIds';
import { sandbox, TempDirs, user } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
const pngBase64 = Buffer.from(png).toString('base64');

const toolCall: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me read it.' },
    { type: 'tool-call', toolCallId: 'call_1', toolName: 'readFile', input: { path: 'src/a.ts', range: [1, 20] } },
  ],
};
const toolResult: ModelMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'readFile', output: { type: 'text', value: 'export const a = 1;\n' } }],
};

describe('append and resume', () => {
  it('rebuilds the same history, with tool calls, tool results and images', () => {
    const { store } = sandbox(dirs);
    const session = store.create();
    session.appendMessage(user('Fix the bug in a.ts'), { model: 'gpt-x', turn: 1, projectName: 'app' });
    session.appendMessage(toolCall, { model: 'gpt-x', turn: 1 });
    session.appendMessage(toolResult);
    session.appendMessage({
      role: 'user',
      content: [
        { type: 'text', text: 'Here is a screenshot' },
        { type: 'image', image: png, mediaType: 'image/png' },
        { type: 'file', data: Buffer.from(png), mediaType: 'image/png', filename: 'shot.png' },
        { type: 'file', data: { type: 'url', url: new URL('https://example.com/spec.pdf') }, mediaType: 'application/pdf' },
      ],
    });
    session.appendMessage({ role: 'assistant', content: 'Half an ans' }, { partial: true });
    const live = session.history();
    session.close();

    const resumed = store.open(session.id);
    expect(resumed.warnings).toEqual([]);
    const history = resumed.history();
    expect(history).toEqual(live);
    expect(history).toHaveLength(5);
    expect(history[1]).toEqual(toolCall);
    expect(history[2]).toEqual(toolResult);
    expect(history[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Here is a screenshot' },
        { type: 'image', image: pngBase64, mediaType: 'image/png' },
        { type: 'file', data: pngBase64, mediaType: 'image/png', filename: 'shot.png' },
        { type: 'file', data: { type: 'url', url: new URL('https://example.com/spec.pdf') }, mediaType: 'application/pdf' },
      ],
    });
    const entries = resumed.entries();
    expect(entries.map((e) => (e.kind === 'message' ? e.meta : undefined))).toEqual([
      { model: 'gpt-x', turn: 1, projectName: 'app' },
      { model: 'gpt-x', turn: 1 },
      undefined,
      undefined,
      { partial: true },
    ]);
    resumed.close();
  });

  it('chains each message to the one before it', () => {
    const { store } = sandbox(dirs);
    const session = store.create();
    const a = session.appendMessage(user('one'));
    const b = session.appendMessage({ role: 'assistant', content: 'two' });
    expect(session.leafId).toBe(b);
    expect(session.entries().map((e) => (e.kind === 'message' ? [e.id, e.parentId] : []))).toEqual([
      [a, null],
      [b, a],
    ]);
    session.close();
  });

  it('writes one plain JSON object per line, header first, each with type and ISO ts', () => {
    const { store, root } = sandbox(dirs);
    const session = store.create({ cwd: root });
    session.appendMessage({ role: 'user', content: [{ type: 'image', image: png }] });
    session.appendConfig('title', 'Screenshot');
    session.appendUsage({ inputTokens: 10, outputTokens: 2 });
    session.close();

    const text = readFileSync(session.path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type)).toEqual(['session', 'message', 'config', 'usage']);
    for (const l of lines) expect(new Date(String(l.ts)).toISOString()).toBe(l.ts);
    expect(lines[0]).toMatchObject({ version: 1, id: session.id, workspaceRoot: root, cwd: root, workspaceKey: store.key });
    expect(JSON.stringify(lines[1])).toContain(pngBase64);
  });

  it('uses date-sortable session ids and lays the log out per workspace', () => {
    const { store, home } = sandbox(dirs);
    const session = store.create();
    expect(session.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
    expect(newSessionId(new Date('2026-11-21T06:35:12.345Z'))).toMatch(/^20261121-063512-[0-9a-f]{8}$/);
    const times = ['2026-11-21T06:35:12Z', '2025-01-02T23:59:59Z', '2026-11-21T06:35:13Z', '2026-02-01T00:00:00Z'];
    const ids = times.map((t) => newSessionId(new Date(t)));
    const byTime = [...times].sort().map((t) => ids[times.indexOf(t)]);
    expect([...ids].sort()).toEqual(byTime);
    expect(session.path).toBe(`${home}/projects/${store.key}/sessions/${session.id}.jsonl`);
    session.close();
  });

  it('refuses a message the log could not read back, writing nothing', () => {
    const { store } = sandbox(dirs);
    const session = store.create();
    const before = readFileSync(session.path, 'utf8');
    const bogus = { role: 'robot', content: 'beep' } as unknown as ModelMessage;
    expect(() => session.appendMessage(bogus)).toThrow(/cannot append/);
    expect(readFileSync(session.path, 'utf8')).toBe(before);
    expect(session.history()).toEqual([]);
    session.close();
  });
});
