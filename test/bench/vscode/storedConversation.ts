// A long stored conversation for the "open it in the view" bench, written by the product's
// own SessionStore into KEEL_HOME for the workspace, as Keel would have written it.
import { SessionStore } from '../../../src/core/session/sessionStore';

export const LAST_MESSAGE_MARKER = 'end-of-the-long-conversation';

const words = 'the parser streams tokens into a buffer and flushes each chunk when a newline arrives so the view can render'.split(' ');
function prose(count: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(words[(seed + i) % words.length]!);
  return out.join(' ');
}

function answer(n: number): string {
  const paragraph = `${prose(60, n)}.`;
  if (n % 5 !== 0) return `${paragraph}\n\n- ${prose(8, n + 1)}\n- ${prose(8, n + 2)}`;
  return `${paragraph}\n\n\`\`\`ts\nexport function step${n}(input: string): string {\n  return input.trim() + '${n}';\n}\n\`\`\``;
}

/** Writes `messages` messages (user and assistant in turn) and returns the session's id. */
export function writeLongConversation(keelHome: string, workspace: string, messages: number): string {
  const store = new SessionStore({ home: keelHome, workspace: { root: workspace } });
  const session = store.create();
  try {
    for (let n = 0; n < messages / 2; n++) {
      const last = n === messages / 2 - 1;
      session.appendMessage({ role: 'user', content: `Question ${n + 1}: ${prose(20, n)}?` }, { turn: n + 1 });
      session.appendMessage(
        { role: 'assistant', content: last ? `${answer(n)}\n\n${LAST_MESSAGE_MARKER}` : answer(n) },
        { model: 'scripted-model', turn: n + 1 },
      );
    }
    return session.id;
  } finally {
    session.close();
  }
}
