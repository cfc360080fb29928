import * as l10n from '@vscode/l10n';
import type { ToolCallState } from '../../../src/protocol/uiMessage';

/** Codicon and words for a tool call state (built when asked: the page's locale is applied after the modules load). */
export function toolStateDisplay(state: ToolCallState): { icon: string; label: string; spin?: boolean } {
  switch (state) {
    case 'streaming':
      return { icon: 'loading', label: l10n.t('Preparing'), spin: true };
    case 'awaitingApproval':
      return { icon: 'shield', label: l10n.t('Waiting for approval') };
    case 'running':
      return { icon: 'loading', label: l10n.t('Running'), spin: true };
    case 'done':
      return { icon: 'check', label: l10n.t('Done') };
    case 'error':
      return { icon: 'error', label: l10n.t('Failed') };
    case 'rejected':
      return { icon: 'circle-slash', label: l10n.t('Rejected') };
    case 'cancelled':
      return { icon: 'debug-stop', label: l10n.t('Cancelled') };
  }
}

const KEY_ARGUMENTS = ['command', 'path', 'file_path', 'filePath', 'pattern', 'url', 'query', 'glob'];

/** The card's one-line header: the host's summary, or the call's most telling argument. */
export function toolCallHeadline(summary: string, input: unknown): string {
  if (summary.trim()) return summary;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const record = input as Record<string, unknown>;
  for (const key of KEY_ARGUMENTS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}
