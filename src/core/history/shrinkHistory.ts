import type { ModelMessage, ToolModelMessage, UserModelMessage } from 'ai';

/** Recovery attempts after a context-too-long error before the person is told. */
export const maxShrinkAttempts = 3;

/** Tool results longer than this may be shortened from the second attempt on. */
const longResultChars = 4_000;
const keptResultChars = 1_500;

export interface ShrinkOutcome {
  messages: ModelMessage[];
  /** Messages left out of what is sent. */
  dropped: number;
  /** Tool results shortened in place. */
  elided: number;
}

/** A run of messages that must stay together: a user message, or an assistant turn with its tool results. */
interface Unit {
  messages: ModelMessage[];
  /** Never dropped: the latest user message, system messages, and the newest turn. */
  keep: boolean;
}

export const trimmedNote = (dropped: number) =>
  `[Keel left out the ${dropped} oldest message${dropped === 1 ? '' : 's'} of this conversation to fit the model's context window. ` +
  'Nothing is lost: they are still in the session, and the history_search tool finds them.]';

function size(m: ModelMessage): number {
  return JSON.stringify(m.content).length;
}

function units(messages: readonly ModelMessage[]): Unit[] {
  const out: Unit[] = [];
  for (const m of messages) {
    const prev = out.at(-1);
    const prevLast = prev?.messages.at(-1);
    // Tool results belong to the assistant turn that called them (and to any results before them).
    if (m.role === 'tool' && prev && (prevLast?.role === 'assistant' || prevLast?.role === 'tool')) prev.messages.push(m);
    else out.push({ messages: [m], keep: m.role === 'system' });
  }
  let lastUser = -1;
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i].messages[0].role === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser >= 0) out[lastUser].keep = true;
  if (out.length > 0) out[out.length - 1].keep = true;
  return out;
}

/**
 * What to send instead of `messages` after the provider said they do not fit: the oldest
 * turns are left out (whole: an assistant's tool calls never lose their results), the latest
 * user message and the newest turn always stay, and from the second attempt (or when nothing
 * can be left out) long tool results are shortened too. `sizeHint` (the window and the request's size from the error) sets how
 * much to cut; otherwise each attempt halves what is sent. Attempt 3 keeps only what must stay.
 * Returns undefined when nothing more can be cut. The messages themselves are not mutated.
 */
export function shrinkHistory(
  given: readonly ModelMessage[],
  attempt: number,
  sizeHint?: { limit: number; actual: number },
): ShrinkOutcome | undefined {
  // A note from an earlier attempt is replaced by one that counts everything left out.
  const { messages, before } = withoutNote(given);
  const all = units(messages);
  const total = messages.reduce((n, m) => n + size(m), 0);
  const ratio = sizeHint && sizeHint.actual > 0 ? Math.min(0.8, Math.max(0.1, (sizeHint.limit / sizeHint.actual) * 0.8)) : 0.5;
  const target = attempt >= maxShrinkAttempts ? 0 : total * ratio;
  let kept = total;
  let dropped = 0;
  const keep = all.map(() => true);
  for (let i = 0; i < all.length && kept > target; i++) {
    if (all[i].keep) continue;
    keep[i] = false;
    kept -= all[i].messages.reduce((n, m) => n + size(m), 0);
    dropped += all[i].messages.length;
  }
  // With nothing to leave out, shortening long results is the only way left.
  const elide = attempt >= 2 || dropped === 0;
  let elided = 0;
  const out: ModelMessage[] = [];
  all.forEach((unit, i) => {
    if (!keep[i]) return;
    for (const m of unit.messages) {
      if (elide && m.role === 'tool') {
        const short = shortenResults(m);
        elided += short.elided;
        out.push(short.message);
      } else {
        out.push(m);
      }
    }
  });
  if (dropped === 0 && elided === 0) return undefined;
  const leftOut = before + dropped;
  return { messages: leftOut > 0 ? withNote(out, trimmedNote(leftOut)) : out, dropped, elided };
}

const notePattern = /^\[Keel left out the (\d+) oldest messages?[^\]]*\]/;

/** The messages without a note of an earlier attempt, and how many that note said were left out. */
function withoutNote(messages: readonly ModelMessage[]): { messages: readonly ModelMessage[]; before: number } {
  const first = messages.findIndex((m) => m.role !== 'system');
  const head = messages[first];
  if (first === -1 || head.role !== 'user') return { messages, before: 0 };
  const text = typeof head.content === 'string' ? head.content : head.content[0]?.type === 'text' ? head.content[0].text : '';
  const match = notePattern.exec(text);
  if (!match) return { messages, before: 0 };
  const before = Number(match[1]);
  const rest = text.slice(match[0].length).replace(/^\n\n/, '');
  let replaced: ModelMessage[];
  if (typeof head.content === 'string') replaced = rest === '' ? [] : [{ ...head, content: rest }];
  else {
    const parts = rest === '' ? head.content.slice(1) : [{ type: 'text' as const, text: rest }, ...head.content.slice(1)];
    replaced = parts.length ? [{ ...head, content: parts }] : [];
  }
  return { messages: [...messages.slice(0, first), ...replaced, ...messages.slice(first + 1)], before };
}

/**
 * Says at the start what was left out: inside the first user message when that is an older
 * one, else as a message of its own (the latest user message is sent exactly as written).
 */
function withNote(messages: ModelMessage[], note: string): ModelMessage[] {
  const first = messages.findIndex((m) => m.role !== 'system');
  if (first === -1) return messages;
  const head = messages[first];
  const latestUser = messages.findLastIndex((m) => m.role === 'user');
  if (head.role === 'user' && first !== latestUser) {
    const content: UserModelMessage['content'] =
      typeof head.content === 'string' ? `${note}\n\n${head.content}` : [{ type: 'text', text: note }, ...head.content];
    return [...messages.slice(0, first), { ...head, content }, ...messages.slice(first + 1)];
  }
  return [...messages.slice(0, first), { role: 'user', content: note }, ...messages.slice(first)];
}

function shortenResults(message: ToolModelMessage): { message: ToolModelMessage; elided: number } {
  let elided = 0;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const out = part.output;
    if ((out.type === 'text' || out.type === 'error-text') && out.value.length > longResultChars) {
      elided++;
      const left = out.value.length - keptResultChars;
      const value = `${out.value.slice(0, keptResultChars)}\n[... ${left} characters of this result left out to fit the model's context window; history_search finds the whole result]`;
      return { ...part, output: { ...out, value } };
    }
    return part;
  });
  return { message: elided ? { ...message, content } : message, elided };
}
