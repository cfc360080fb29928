import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionHistoryOf } from '../../../src/core/history/sessionHistoryOf';
import { historySearchTool } from '../../../src/core/tools/historySearchTool';
import type { Session } from '../../../src/core/session/session';
import { createToolEnv } from '../tools/toolTestKit';
import type { ToolEnv } from '../tools/toolTestKit';
import { sandbox, TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
let env: ToolEnv;
let session: Session;
// One 1,200-message session for the whole file; only the last test adds to it (a compaction).
beforeAll(async () => {
  await longSession();
});
afterAll(async () => {
  session?.close();
  dirs.cleanup();
  await env?.cleanup();
});

/** 300 exchanges: a question, a tool call with its result, an answer. */
async function longSession(): Promise<Session> {
  env = await createToolEnv();
  session = sandbox(dirs).store.create();
  for (let i = 1; i <= 300; i++) {
    session.appendMessage({ role: 'user', content: `question ${i}: ${i === 42 ? 'where is the flux capacitor configured?' : 'anything else'}` });
    const call: ModelMessage = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `t${i}`, toolName: 'grep', input: { pattern: `p${i}` } }] };
    session.appendMessage(call, { turn: 1 });
    const value = i === 42 ? 'src/config/flux.ts:3: capacitor = 1.21 gigawatts' : `no match for p${i}`;
    session.appendMessage({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `t${i}`, toolName: 'grep', output: { type: 'text', value } }] }, { turn: 1 });
    session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] }, { turn: 2 });
  }
  return session;
}

async function search(input: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await env.run(historySearchTool, input, { history: sessionHistoryOf(session) });
  return { text: String(r.output), isError: r.isError === true };
}

describe('history_search', () => {
  it('finds an old message and its tool result by keywords, with position, exchange and id', async () => {
    const { text, isError } = await search({ query: 'flux capacitor' });
    expect(isError).toBe(false);
    expect(text).toMatch(/^2 messages of 1200 contain "flux capacitor" \(oldest first\):/);
    expect(text).toMatch(/--- #165 user · exchange 42 · \S+ · id \S+\nquestion 42: where is the flux capacitor configured\?/);
    expect(text).toMatch(/--- #167 tool · exchange 42 .*\n\[grep result\] src\/config\/flux\.ts:3: capacitor = 1\.21 gigawatts/);
  });

  it('returns the last N messages', async () => {
    const { text } = await search({ last: 3 });
    expect(text).toMatch(/^The last 3 of 1200 messages/);
    expect(text).toContain('#1198 assistant');
    expect(text).toContain('answer 300');
    expect(text).not.toContain('#1197');
  });

  it('caps the number of matches and says how many there were', async () => {
    const { text } = await search({ query: 'anything else' });
    expect(text).toMatch(/^299 messages of 1200 contain "anything else"; showing 20, the newest/);
    expect(text.match(/^--- #/gm)).toHaveLength(20);
    expect(text).toContain('question 300');
  });

  it('falls back to messages with some of the keywords, and says when nothing matches', async () => {
    expect((await search({ query: 'capacitor unicorn' })).text).toMatch(/contain some of "capacitor unicorn"/);
    expect((await search({ query: 'unicorn' })).text).toBe('No message of this conversation (1200 messages) contains "unicorn".');
  });

  it('asks for a query or a count', async () => {
    await expect(env.run(historySearchTool, {}, { history: sessionHistoryOf(session) })).rejects.toThrow(/query/);
  });

  it('finds messages that compaction removed from what the model sees', async () => {
    const entries = session.entries();
    session.appendCompaction('We talked about many things.', entries[800].id);
    expect(session.history().length).toBeLessThan(500);
    const { text } = await search({ query: 'gigawatts' });
    expect(text).toContain('capacitor = 1.21 gigawatts');
    const summary = await search({ query: 'talked about many' });
    expect(summary.text).toContain('summary');
  });
});
