import type { SessionEntry } from '../session/session';
import { messageText } from './sessionHistory';
import type { HistoryMessage, SessionHistory } from './sessionHistory';

/**
 * The searchable history of a session: its whole active branch, compacted messages and the
 * compaction summary included. Message texts are computed once per message id.
 */
export function sessionHistoryOf(session: { entries(): SessionEntry[] }): SessionHistory {
  const texts = new Map<string, string>();
  return {
    messages(): HistoryMessage[] {
      const out: HistoryMessage[] = [];
      let exchange = 0;
      for (const e of session.entries()) {
        if (e.kind === 'compaction') {
          out.push({ id: e.id, index: out.length + 1, role: 'summary', exchange, ts: e.ts, text: `(summary of the conversation up to here) ${e.summary}` });
          continue;
        }
        if (e.message.role === 'user') exchange++;
        let text = texts.get(e.id);
        if (text === undefined) {
          text = messageText(e.message);
          texts.set(e.id, text);
        }
        out.push({ id: e.id, index: out.length + 1, role: e.message.role, exchange, ts: e.ts, text });
      }
      return out;
    },
  };
}
