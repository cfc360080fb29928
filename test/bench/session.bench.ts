import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import type { Session } from '../../src/core/session/session';
import { SessionStore } from '../../src/core/session/sessionStore';
import type { BenchSuite } from './benchTypes';

interface Fixture {
  base: string;
  store: SessionStore;
  sessionId: string;
}

function fixture(): Omit<Fixture, 'sessionId'> {
  const base = mkdtempSync(join(tmpdir(), 'keel-session-bench-'));
  const root = join(base, 'workspace');
  mkdirSync(root);
  const store = new SessionStore({ home: join(base, 'keel-home'), workspace: { root } });
  return { base, store };
}

const words = 'the parser streams tokens into a buffer and flushes each chunk when a newline arrives '.split(' ');
function prose(chars: number, seed: number): string {
  let out = '';
  for (let i = seed; out.length < chars; i++) out += `${words[i % words.length]} `;
  return out.slice(0, chars);
}

/** One agent turn, about 6 KB: a prompt, a tool call, its result, an answer. */
function appendTurn(session: Session, n: number): void {
  const callId = `call_${n}`;
  const turn = n + 1;
  session.appendMessage({ role: 'user', content: prose(200, n) }, { turn });
  session.appendMessage(
    {
      role: 'assistant',
      content: [
        { type: 'text', text: prose(800, n + 1) },
        { type: 'tool-call', toolCallId: callId, toolName: 'readFile', input: { path: `src/module${n % 50}.ts` } },
      ],
    } satisfies ModelMessage,
    { model: 'bench-model', turn },
  );
  session.appendMessage({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: callId, toolName: 'readFile', output: { type: 'text', value: prose(2000, n + 2) } }],
  });
  session.appendMessage({ role: 'assistant', content: prose(800, n + 3) }, { model: 'bench-model', turn });
  session.appendUsage({ inputTokens: 4000 + n, outputTokens: 400, model: 'bench-model' });
}

function teardown(state: Fixture | undefined): void {
  if (state) rmSync(state.base, { recursive: true, force: true });
}

export const suite: BenchSuite = {
  name: 'session',
  benches: [
    {
      name: 'resume a 10,000-message session (open + history)',
      target: '< 300 ms',
      limit: 300,
      setup(): Fixture {
        const f = fixture();
        const session = f.store.create();
        for (let n = 0; n < 2500; n++) appendTurn(session, n);
        session.close();
        return { ...f, sessionId: session.id };
      },
      run(state: Fixture): void {
        const session = state.store.open(state.sessionId);
        const history = session.history();
        session.close();
        if (history.length !== 10_000) throw new Error(`resumed ${history.length} messages, expected 10000`);
      },
      teardown,
    },
    {
      name: 'list 1,000 sessions',
      target: '< 100 ms',
      limit: 100,
      setup(): Fixture {
        const f = fixture();
        for (let i = 0; i < 1000; i++) {
          const session = f.store.create();
          appendTurn(session, i);
          appendTurn(session, i + 1);
          if (i % 3 === 0) session.appendConfig('title', `Session ${i}: ${prose(40, i)}`);
          session.close();
        }
        return { ...f, sessionId: '' };
      },
      run(state: Fixture): void {
        const list = state.store.list();
        if (list.length !== 1000) throw new Error(`listed ${list.length} sessions, expected 1000`);
      },
      teardown,
    },
    {
      name: 'append one ~6 KB turn (4 messages + usage, log and summary)',
      target: '< 5 ms',
      limit: 5,
      setup(): Fixture & { session: Session; n: number } {
        const f = fixture();
        const session = f.store.create();
        return { ...f, sessionId: session.id, session, n: 0 };
      },
      run(state: Fixture & { session: Session; n: number }): void {
        appendTurn(state.session, state.n++);
      },
      teardown(state: (Fixture & { session: Session }) | undefined): void {
        state?.session.close();
        teardown(state);
      },
    },
  ],
};
