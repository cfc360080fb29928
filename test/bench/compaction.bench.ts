import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyCompaction, prepareCompaction } from '../../src/core/compaction/compactor';
import { estimateTokens } from '../../src/core/compaction/tokenEstimate';
import type { Session } from '../../src/core/session/session';
import { SessionStore } from '../../src/core/session/sessionStore';
import type { BenchSuite } from './benchTypes';

const words = 'the parser streams tokens into a buffer and flushes each chunk when a newline arrives '.split(' ');
function prose(chars: number, seed: number): string {
  let out = '';
  for (let i = seed; out.length < chars; i++) out += `${words[i % words.length]} `;
  return out.slice(0, chars);
}

/** One agent turn, about 1,500 tokens: a prompt, a tool call, its result, an answer. */
function appendTurn(session: Session, n: number): void {
  const callId = `call_${n}`;
  session.appendMessage({ role: 'user', content: prose(200, n) });
  session.appendMessage({
    role: 'assistant',
    content: [
      { type: 'text', text: prose(800, n + 1) },
      { type: 'tool-call', toolCallId: callId, toolName: 'read', input: { path: `src/module${n % 50}.ts` } },
    ],
  });
  session.appendMessage({ role: 'tool', content: [{ type: 'tool-result', toolCallId: callId, toolName: 'read', output: { type: 'text', value: prose(4000, n + 2) } }] });
  session.appendMessage({ role: 'assistant', content: prose(800, n + 3) });
}

interface Fixture {
  base: string;
  sessions: Session[];
  next: number;
}

const runs = 7;
const warmup = 1;
const window = 200_000;

export const suite: BenchSuite = {
  name: 'compaction',
  benches: [
    {
      name: 'compact a 150k-token history (plan, transcript, record; no model call)',
      target: '< 50 ms',
      limit: 50,
      runs,
      warmup,
      setup(): Fixture {
        const base = mkdtempSync(join(tmpdir(), 'keel-compaction-bench-'));
        const root = join(base, 'workspace');
        mkdirSync(root);
        const store = new SessionStore({ home: join(base, 'keel-home'), workspace: { root } });
        // One session per measured run: a compaction changes what the next one would do.
        const sessions: Session[] = [];
        // The first (the warm-up's) learns how many turns make 150k tokens; the measured ones are
        // built without being measured, so no token count is cached for them (a cold /compact).
        const first = store.create();
        let turns = 0;
        while (estimateTokens(first.history()) < 150_000) appendTurn(first, turns++);
        sessions.push(first);
        for (let s = 1; s < runs + warmup; s++) {
          const session = store.create();
          for (let n = 0; n < turns; n++) appendTurn(session, n);
          sessions.push(session);
        }
        return { base, sessions, next: 0 };
      },
      run(state: Fixture): number {
        const session = state.sessions[state.next++]!;
        const started = performance.now();
        // As automatic compaction does at 80% of a 200k window: keep a quarter of that as it is.
        const prepared = prepareCompaction(session, { keepTokens: Math.floor(window * 0.8 * 0.25), contextWindow: window });
        if (!prepared) throw new Error('nothing to compact');
        const outcome = applyCompaction(session, prepared, '## Goal\nA summary the model would have written.');
        const ms = performance.now() - started;
        if (outcome.tokensBefore < 150_000 || outcome.tokensAfter > 50_000) {
          throw new Error(`compacted ${outcome.tokensBefore} → ${outcome.tokensAfter} tokens`);
        }
        return ms;
      },
      teardown(state: Fixture | undefined): void {
        if (!state) return;
        for (const s of state.sessions) s.close();
        rmSync(state.base, { recursive: true, force: true });
      },
    },
  ],
};
