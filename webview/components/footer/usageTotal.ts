import * as l10n from '@vscode/l10n';
import type { Usage } from '../../../src/protocol/sessionState';

export interface ConversationTotal {
  /** What the footer shows: the cost, or the tokens when the price is not known. */
  label: string;
  /** Every count: input with cache reads and writes, output with reasoning, and the cost. */
  detail: string;
}

const count = new Intl.NumberFormat('en-US');

function dollars(amount: number): string {
  return amount >= 0.01 || amount === 0 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}

/** The conversation's tokens and cost so far, or null before the first answer. */
export function conversationTotal(usage: Usage | null): ConversationTotal | null {
  if (!usage || usage.inputTokens + usage.outputTokens === 0) return null;
  const priced = usage.costUsd !== undefined;
  const lines = [
    l10n.t('Input: {0} tokens', count.format(usage.inputTokens)),
    ...(usage.cachedInputTokens ? [l10n.t('Read from cache: {0}', count.format(usage.cachedInputTokens))] : []),
    ...(usage.cacheWriteTokens ? [l10n.t('Written to cache: {0}', count.format(usage.cacheWriteTokens))] : []),
    l10n.t('Output: {0} tokens', count.format(usage.outputTokens)),
    ...(usage.reasoningTokens ? [l10n.t('Reasoning: {0}', count.format(usage.reasoningTokens))] : []),
    priced ? l10n.t('Cost: {0}', dollars(usage.costUsd!)) : l10n.t('Cost: unknown price'),
  ];
  const tokens = l10n.t('{0} tokens', count.format(usage.inputTokens + usage.outputTokens));
  return { label: priced ? dollars(usage.costUsd!) : tokens, detail: lines.join('\n') };
}
