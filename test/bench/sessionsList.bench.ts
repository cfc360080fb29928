// The host side of the sessions list over 1,000 sessions: the first page the view asks for,
// and a search by message text (titles first, then the logs that could hold the words).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../src/core/session/sessionStore';
import type { BenchSuite } from './benchTypes';

interface Fixture {
  base: string;
  store: SessionStore;
  /** A new store on the same folder: nothing read yet. */
  fresh(): SessionStore;
}

const SESSIONS = 1000;

function fixture(): Fixture {
  const base = mkdtempSync(join(tmpdir(), 'keel-bench-sessions-'));
  const root = join(base, 'ws');
  const store = new SessionStore({ home: join(base, 'home'), workspace: { root } });
  for (let i = 0; i < SESSIONS; i++) {
    const s = store.create();
    for (let t = 0; t < 5; t++) {
      s.appendMessage({ role: 'user', content: `Conversation ${i}, question ${t}: how does the parser handle chunk ${i * 10 + t}?` });
      s.appendMessage({
        role: 'assistant',
        content: `Chunk ${i * 10 + t} is flushed when a newline arrives; the buffer keeps the rest. `.repeat(8),
      });
    }
    s.appendUsage({ inputTokens: 4000 + i, outputTokens: 400 });
    s.close();
  }
  return { base, store, fresh: () => new SessionStore({ home: join(base, 'home'), workspace: { root } }) };
}

function teardown(state: Fixture | undefined): void {
  if (state) rmSync(state.base, { recursive: true, force: true });
}

export const suite: BenchSuite = {
  name: 'sessions list',
  benches: [
    {
      name: `first page (50) of ${SESSIONS.toLocaleString('en')} sessions, newest first`,
      target: '< 150 ms',
      limit: 150,
      setup: fixture,
      run(state: Fixture): void {
        const page = state.store.list({ limit: 50 });
        if (page.length !== 50) throw new Error(`listed ${page.length}, expected 50`);
      },
      teardown,
    },
    {
      name: `search ${SESSIONS.toLocaleString('en')} sessions by message text (~10 KB logs; the person types on, logs read before are kept)`,
      target: '< 150 ms',
      limit: 150,
      setup: fixture,
      run(state: Fixture): void {
        const found = state.store.list({ query: 'chunk 9984 is flushed' });
        if (found.length !== 1) throw new Error(`found ${found.length}, expected 1`);
      },
      teardown,
    },
    {
      name: `(info) the first search in a window: ${SESSIONS.toLocaleString('en')} logs read from disk`,
      target: 'info',
      limit: Number.POSITIVE_INFINITY,
      setup: fixture,
      run(state: Fixture): void {
        const found = state.fresh().list({ query: 'chunk 9984 is flushed' });
        if (found.length !== 1) throw new Error(`found ${found.length}, expected 1`);
      },
      teardown,
    },
  ],
};
