import * as l10n from '@vscode/l10n';
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
