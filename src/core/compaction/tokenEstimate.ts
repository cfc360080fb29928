import type { ModelMessage } from 'ai';

/**
 * A quick token count: about four characters of JSON per token. It runs before every request
 * (no tokenizer is bundled), so it only has to be close enough to decide when to compact.
 */
export const charsPerToken = 4;

export function messageTokens(message: ModelMessage): number {
  const c = message.content;
  return Math.ceil((typeof c === 'string' ? c.length + 8 : JSON.stringify(c).length) / charsPerToken) + 4;
}

export function estimateTokens(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

export function textTokens(text: string): number {
  return Math.ceil(text.length / charsPerToken);
}
