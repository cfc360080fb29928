import * as vscode from 'vscode';

/** The left side of Keel's diffs: the file as the agent saw it, read-only, kept in memory. */
export class OriginalContent implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange: vscode.Event<vscode.Uri> = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  remove(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    // A tab VS Code restored after the change was decided: say so rather than show an empty file.
    return this.texts.get(uri.toString()) ?? `${vscode.l10n.t('(This Keel proposal is no longer waiting for a decision.)')}\n`;
  }

  dispose(): void {
    this.texts.clear();
    this.changed.dispose();
  }
}
