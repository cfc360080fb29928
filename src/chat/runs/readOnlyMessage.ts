import * as l10n from '@vscode/l10n';

/** What the person reads when a conversation is open for writing in another window. */
export function readOnlyMessage(reason: string): string {
  return l10n.t(
    'This conversation is read-only in this window: {0}. Two windows writing one conversation would corrupt it; continue it in that window, or start a new chat here.',
    reason,
  );
}
