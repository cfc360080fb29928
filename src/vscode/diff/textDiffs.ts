import * as vscode from 'vscode';
import type { TextDiff } from '../../chat/parts/changeReverts';

/** Read-only documents of what a command changed: `keel-command:/<n>/<before|after>/<displayPath>`. */
export const COMMAND_DIFF_SCHEME = 'keel-command';

/** Most diffs kept open at once; older ones are forgotten (their tabs then say so). */
const KEPT = 50;

/**
 * What a command did to a file, shown in VS Code's diff editor: the content before and after
 * it from Keel's snapshots, kept in memory while the tab may need them.
 */
export class TextDiffs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 1;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(COMMAND_DIFF_SCHEME, this);
  }

  async open(diff: TextDiff): Promise<boolean> {
    const n = this.next++;
    const uri = (side: string) => vscode.Uri.from({ scheme: COMMAND_DIFF_SCHEME, path: `/${n}/${side}/${diff.displayPath.replace(/^\/+/, '')}` });
    const left = uri('before');
    const right = uri('after');
    this.texts.set(left.toString(), diff.before);
    this.texts.set(right.toString(), diff.after);
    while (this.texts.size > KEPT * 2) this.texts.delete(this.texts.keys().next().value!);
    await vscode.commands.executeCommand('vscode.diff', left, right, diff.title, { preview: true, preserveFocus: true });
    return true;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? `${vscode.l10n.t('(Keel no longer holds this diff; open it again from the command card.)')}\n`;
  }

  dispose(): void {
    this.texts.clear();
    this.registration.dispose();
  }
}
