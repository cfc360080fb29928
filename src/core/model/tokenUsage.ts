import type { Usage } from './wire/modelSpec';

/**
 * Tokens of one model call or a sum of them. `inputTokens` counts the whole prompt, cache reads
 * and writes included; the optional fields say how much of it the provider read from or wrote
 * to its prompt cache, and how much of the output was reasoning. They are absent when zero or
 * not reported, so a provider that reports nothing more reads as before.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

const extras = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** Adds `more` into `into`. */
export function addUsage(into: TokenUsage, more: TokenUsage): void {
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
  for (const key of extras) {
    const n = more[key] ?? 0;
    if (n > 0) into[key] = (into[key] ?? 0) + n;
  }
}

/** What a model call's finish part says it used. */
export function usageOfCall(usage: Usage): TokenUsage {
  const out: TokenUsage = { inputTokens: usage.inputTokens.total ?? 0, outputTokens: usage.outputTokens.total ?? 0 };
  if ((usage.inputTokens.cacheRead ?? 0) > 0) out.cachedInputTokens = usage.inputTokens.cacheRead;
  if ((usage.inputTokens.cacheWrite ?? 0) > 0) out.cacheWriteTokens = usage.inputTokens.cacheWrite;
  if ((usage.outputTokens.reasoning ?? 0) > 0) out.reasoningTokens = usage.outputTokens.reasoning;
  return out;
}

/** Just the token fields of a record that also carries others. */
export function tokensOf(record: TokenUsage): TokenUsage {
  const out: TokenUsage = { inputTokens: record.inputTokens, outputTokens: record.outputTokens };
  addUsage(out, { inputTokens: 0, outputTokens: 0, ...pick(record) });
  return out;
}

function pick(record: TokenUsage): Partial<TokenUsage> {
  const out: Partial<TokenUsage> = {};
  for (const key of extras) if (record[key] !== undefined) out[key] = record[key];
  return out;
}
