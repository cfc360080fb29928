import type { ModelMessage } from 'ai';

/**
 * A quick token count: about four characters of JSON per token. It runs before every request
 * (no tokenizer is bundled), so it only has to be close enough to decide when to compact.
 */
export const charsPerToken = 4;

/** Messages from the session are shared and never mutated, so each is measured once. */
const measured = new WeakMap<ModelMessage, number>();

export function messageTokens(message: ModelMessage): number {
  let n = measured.get(message);
  if (n === undefined) {
    const c = message.content;
    n = Math.ceil((typeof c === 'string' ? c.length + 8 : JSON.stringify(c).length) / charsPerToken) + 4;
    measured.set(message, n);
  }
  return n;
}

export function estimateTokens(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

export function textTokens(text: string): number {
  return Math.ceil(text.length / charsPerToken);
}
