import * as l10n from '@vscode/l10n';
import type { UsageTotals } from './sessionState';

/** US dollars as a person reads a bill: cents for sums of a cent or more, four places below. */
export function dollars(amount: number): string {
  return amount >= 0.01 || amount === 0 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}

/**
 * Tokens and cost in one phrase: `12,345 in / 456 out tokens (10,000 cached, 1,200 written to
 * cache, 120 reasoning), $0.0123`; the cost reads "unknown price" unless every call had a price.
 */
export function usageText(usage: UsageTotals): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const details: string[] = [];
  if (usage.cachedInputTokens) details.push(l10n.t('{0} cached', n(usage.cachedInputTokens)));
  if (usage.cacheWriteTokens) details.push(l10n.t('{0} written to cache', n(usage.cacheWriteTokens)));
  if (usage.reasoningTokens) details.push(l10n.t('{0} reasoning', n(usage.reasoningTokens)));
  const tokens = l10n.t('{0} in / {1} out tokens', n(usage.inputTokens), n(usage.outputTokens));
  const cost = usage.costUsd !== undefined ? dollars(usage.costUsd) : l10n.t('unknown price');
  return l10n.t('{0}, {1}', `${tokens}${details.length ? ` (${details.join(', ')})` : ''}`, cost);
}
