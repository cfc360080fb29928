import type { ModelMessage } from 'ai';
import { messageTokens } from './tokenEstimate';

export interface PlanInput {
  /** The messages after the summary in force, oldest first. */
  messages: readonly { id: string; message: ModelMessage }[];
  /**
   * Tokens of recent messages to keep as they are (0: summarize everything). The kept part
   * grows to the next place where a cut is allowed, so it may hold a little more.
   */
  keepTokens: number;
}

export interface CompactionPlan {
  /** Index (in `messages`) of the last message the summary replaces. */
  lastIndex: number;
  /** Its id: the compaction record's `replacesUpTo`. */
  replacesUpTo: string;
  compactedTokens: number;
  keptTokens: number;
}

/**
 * Where to cut: the summary replaces messages[0..lastIndex] and the rest is sent as it is.
 * A cut never falls between an assistant's tool calls and their results (the kept part never
 * starts with a tool message), so every call the model sees still has its result.
 * Undefined when there is nothing to summarize.
 */
export function planCompaction(input: PlanInput): CompactionPlan | undefined {
  const { messages } = input;
  const n = messages.length;
  if (n === 0) return undefined;
  const tokens = messages.map((m) => messageTokens(m.message));
  const total = tokens.reduce((a, b) => a + b, 0);
  // `start` is the first kept message; n keeps nothing.
  let start = n;
  let kept = 0;
  if (input.keepTokens > 0) {
    while (start > 0 && kept < input.keepTokens) {
      start--;
      kept += tokens[start]!;
    }
  }
  // Move the cut back over tool results so they stay with their calls.
  while (start > 0 && start < n && messages[start]!.message.role === 'tool') {
    start--;
    kept += tokens[start]!;
  }
  if (start === 0) return undefined;
  const lastIndex = start - 1;
  return { lastIndex, replacesUpTo: messages[lastIndex]!.id, compactedTokens: total - kept, keptTokens: kept };
}
