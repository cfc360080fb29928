import * as l10n from '@vscode/l10n';
import type { MessageUsage } from '../../../src/protocol/messageUsage';
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

/** The cost as a person reads it, or "unknown price" (never a guess). */
export function costText(usage: MessageUsage): string {
  return usage.costUsd !== undefined ? dollars(usage.costUsd) : l10n.t('unknown price');
}

/** Every count, one per line: input with cache reads and writes, output with reasoning, and the cost. */
export function usageDetail(usage: MessageUsage): string {
  const lines = [
    l10n.t('Input: {0} tokens', count.format(usage.inputTokens)),
    ...(usage.cachedInputTokens ? [l10n.t('Read from cache: {0}', count.format(usage.cachedInputTokens))] : []),
    ...(usage.cacheWriteTokens ? [l10n.t('Written to cache: {0}', count.format(usage.cacheWriteTokens))] : []),
    l10n.t('Output: {0} tokens', count.format(usage.outputTokens)),
    ...(usage.reasoningTokens ? [l10n.t('Reasoning: {0}', count.format(usage.reasoningTokens))] : []),
    usage.costUsd !== undefined ? l10n.t('Cost: {0}', dollars(usage.costUsd)) : l10n.t('Cost: unknown price'),
  ];
  return lines.join('\n');
}

/**
 * One message's usage on one line: `1,200 in (1,000 cached, 150 to cache) · 80 out (20 reasoning) · $0.0012`.
 */
export function usageLine(usage: MessageUsage): string {
  const input: string[] = [];
  if (usage.cachedInputTokens) input.push(l10n.t('{0} cached', count.format(usage.cachedInputTokens)));
  if (usage.cacheWriteTokens) input.push(l10n.t('{0} to cache', count.format(usage.cacheWriteTokens)));
  const inText = l10n.t('{0} in', count.format(usage.inputTokens)) + (input.length ? ` (${input.join(', ')})` : '');
  const outText = l10n.t('{0} out', count.format(usage.outputTokens)) + (usage.reasoningTokens ? ` (${l10n.t('{0} reasoning', count.format(usage.reasoningTokens))})` : '');
  return [inText, outText, costText(usage)].join(' · ');
}

/** Usage in a few words, for a card's line: `1,280 tokens · $0.0012` (or the unknown price). */
export function usageBrief(usage: MessageUsage): string {
  return `${l10n.t('{0} tokens', count.format(usage.inputTokens + usage.outputTokens))} · ${costText(usage)}`;
}

/** The conversation's tokens and cost so far, or null before the first answer. */
export function conversationTotal(usage: Usage | null): ConversationTotal | null {
  if (!usage || usage.inputTokens + usage.outputTokens === 0) return null;
  const tokens = l10n.t('{0} tokens', count.format(usage.inputTokens + usage.outputTokens));
  return { label: usage.costUsd !== undefined ? dollars(usage.costUsd) : tokens, detail: usageDetail(usage) };
}
