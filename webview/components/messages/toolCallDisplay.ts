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
