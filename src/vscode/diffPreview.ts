import * as vscode from 'vscode';
import type { FileChange } from '../core/tools/tool';

export const DIFF_SCHEME = 'keel-proposal';
/** Proposals kept for diff tabs that may still be open; older ones show as empty. */
const KEEP = 30;

/**
 * Read-only documents holding a proposed change's two sides, so VS Code's diff editor can
 * show it without anything touching the disk. The file name stays last in the URI so the
 * editor picks the right language.
 */
export class DiffPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the diff beside the chat without moving focus to it. */
  async open(approvalId: string, change: FileChange): Promise<boolean> {
    const left = this.put(approvalId, 'current', change.displayPath, change.before ?? '');
    const right = this.put(approvalId, 'proposed', change.displayPath, change.after ?? '');
    const kind = change.before === null ? 'new file' : change.after === null ? 'deleted' : 'proposed change';
    await vscode.commands.executeCommand('vscode.diff', left, right, `${change.displayPath} (Keel: ${kind})`, {
      preview: true,
      preserveFocus: true,
    });
    return true;
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  private put(approvalId: string, side: string, displayPath: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${approvalId}/${side}/${displayPath}` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEEP * 2) {
      const oldest = this.texts.keys().next();
      if (oldest.done) break;
      this.texts.delete(oldest.value);
    }
    return uri;
  }
}
