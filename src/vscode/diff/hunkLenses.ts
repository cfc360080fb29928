import * as vscode from 'vscode';
import type { ChangeReview } from './changeReview';
import { PROPOSED_SCHEME } from './proposalUris';

export const ACCEPT_HUNK_COMMAND = 'keel.acceptHunk';
export const REJECT_HUNK_COMMAND = 'keel.rejectHunk';

/**
 * Accept / Reject above each hunk of a proposal (the right side of Keel's diff), and the
 * whole change's Accept / Reject above the first line.
 */
export class HunkLenses implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly review: ChangeReview) {
    this.onDidChangeCodeLenses = review.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const entry = this.review.forUri(document.uri);
    if (!entry?.review) return [];
    entry.review.setText(document.getText());
    const hunks = entry.review.hunks();
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses: vscode.CodeLens[] = [
      new vscode.CodeLens(top, {
        title: `$(check) ${hunks.length > 1 ? vscode.l10n.t('Accept change ({0} hunks)', hunks.length) : vscode.l10n.t('Accept change')}`,
        command: 'keel.acceptChange',
        arguments: [entry.id],
        tooltip: vscode.l10n.t('Apply this proposal as shown (Ctrl+Enter)'),
      }),
      new vscode.CodeLens(top, { title: `$(close) ${vscode.l10n.t('Reject change')}`, command: 'keel.rejectChange', arguments: [entry.id], tooltip: vscode.l10n.t('Write nothing (Ctrl+Shift+Backspace)') }),
    ];
    if (entry.protected) {
      lenses.push(new vscode.CodeLens(top, { title: `$(shield) ${vscode.l10n.t('Protected path: written only if you accept')}`, command: '' }));
    }
    hunks.forEach((hunk, index) => {
      const line = Math.max(0, Math.min(hunk.afterStart, document.lineCount - 1));
      const at = new vscode.Range(line, 0, line, 0);
      const keep = hunk.beforeCount === 0 ? vscode.l10n.t('Keep these added lines') : hunk.afterCount === 0 ? vscode.l10n.t('Keep these removed lines') : vscode.l10n.t('Keep these changed lines');
      if (entry.review!.isAccepted(hunk)) {
        lenses.push(new vscode.CodeLens(at, { title: `$(pass-filled) ${vscode.l10n.t('Hunk {0} accepted', index + 1)}`, command: '' }));
      } else {
        lenses.push(
          new vscode.CodeLens(at, {
            title: `$(check) ${vscode.l10n.t('Accept hunk {0}', index + 1)}`,
            command: ACCEPT_HUNK_COMMAND,
            arguments: [entry.id, index, hunk.beforeStart],
            tooltip: keep,
          }),
        );
      }
      lenses.push(
        new vscode.CodeLens(at, {
          title: `$(discard) ${vscode.l10n.t('Reject hunk {0}', index + 1)}`,
          command: REJECT_HUNK_COMMAND,
          arguments: [entry.id, index, hunk.beforeStart],
          tooltip: vscode.l10n.t('Take this hunk out of the proposal (the original lines stay)'),
        }),
      );
    });
    return lenses;
  }
}

/** Registers the lenses on Keel's proposal documents. */
export function registerHunkLenses(review: ChangeReview): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider({ scheme: PROPOSED_SCHEME }, new HunkLenses(review));
}
