import * as z from 'zod';

const tokens = z.number().int().nonnegative();

/**
 * Tokens of one or more model calls and what they cost. `inputTokens` counts the whole prompt;
 * of it, read from / written to the provider's prompt cache; of `outputTokens`, reasoning.
 */
export const tokenUsageShape = {
  inputTokens: tokens,
  outputTokens: tokens,
  cachedInputTokens: tokens.optional(),
  cacheWriteTokens: tokens.optional(),
  reasoningTokens: tokens.optional(),
  /** US dollars, present only while every call's model had a price. */
  costUsd: z.number().nonnegative().optional(),
};

/** What the model calls behind one message used (an answer's turn, a compaction's summary). */
export const messageUsageSchema = z.strictObject(tokenUsageShape);

/**
 * What fills the context window, in tokens, from the latest request: the parts add up to the
 * meter's count (the request's input and the answer's output).
 */
export const contextPartsSchema = z.strictObject({
  /** The system prompt and the tool definitions. */
  system: tokens,
  /** Rules files in effect, as the workspace context carried them. */
  rules: tokens,
  /** The rest of the workspace context (environment, git, editors, layout). */
  workspace: tokens,
  /** What @-mentions and attachments added. */
  mentions: tokens,
  /** The person's words, the answers and the tool calls (with the latest answer). */
  history: tokens,
  toolResults: tokens,
});

export type MessageUsage = z.infer<typeof messageUsageSchema>;
export type ContextParts = z.infer<typeof contextPartsSchema>;
