import * as l10n from '@vscode/l10n';
import type { ContextParts } from '../../../src/protocol/messageUsage';
import type { Usage } from '../../../src/protocol/sessionState';

export interface ContextUsage {
  used: number;
  window: number;
  /** 0..1 */
  fraction: number;
  text: string;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** How full the context window is, or null when the host has not said. */
export function contextUsage(usage: Usage | null): ContextUsage | null {
  if (!usage || usage.contextTokens === undefined || !usage.contextWindow) return null;
  const used = usage.contextTokens;
  const window = usage.contextWindow;
  const fraction = Math.min(1, used / window);
  const percent = Math.round(fraction * 100);
  return {
    used,
    window,
    fraction,
    text: l10n.t('{0} of {1} tokens in context ({2}%)', numberFormat.format(used), numberFormat.format(window), percent),
  };
}

export interface ContextPartRow {
  key: keyof ContextParts;
  label: string;
  tokens: number;
  text: string;
}

// Labels built at render time: the page's locale is applied after the modules load.
const partLabels = (): Record<keyof ContextParts, string> => ({
  system: l10n.t('System prompt and tools'),
  rules: l10n.t('Rules'),
  workspace: l10n.t('Workspace context'),
  mentions: l10n.t('Mentions and attachments'),
  history: l10n.t('Conversation'),
  toolResults: l10n.t('Tool results'),
});

/** What fills the window, largest first (parts with no tokens left out), or null when the host did not say. */
export function contextPartRows(usage: Usage | null): ContextPartRow[] | null {
  const parts = usage?.contextParts;
  if (!parts) return null;
  const labels = partLabels();
  return (Object.keys(labels) as (keyof ContextParts)[])
    .filter((key) => parts[key] > 0)
    .sort((a, b) => parts[b] - parts[a])
    .map((key) => ({ key, label: labels[key], tokens: parts[key], text: l10n.t('{0}: {1} tokens', labels[key], numberFormat.format(parts[key])) }));
}

/** How close automatic compaction is, in words, or null when it is off or the size is unknown. */
export function compactionText(usage: Usage | null): string | null {
  if (!usage?.compactAt || usage.contextTokens === undefined) return null;
  const left = usage.compactAt - usage.contextTokens;
  const at = numberFormat.format(usage.compactAt);
  return left > 0
    ? l10n.t('Compacts automatically at {0} tokens ({1} to go)', at, numberFormat.format(left))
    : l10n.t('Compacts automatically at {0} tokens: before the next request', at);
}
