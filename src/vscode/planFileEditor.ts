import * as vscode from 'vscode';
import type { PlanFiles } from './planRuns';

/**
 * Plans open as ordinary Markdown files (they live in the session's folder under Keel's
 * home), so the person edits them with the whole editor; what is saved is what executes.
 */
const SAVE_ATTEMPTS = 10;
const SAVE_RETRY_MS = 200;

export class PlanFileEditor implements PlanFiles {
  async open(path: string): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    // The person opened it to read or edit it: a real (not preview) tab, with focus.
    await vscode.window.showTextDocument(document, { preview: false });
    return true;
  }

  /** Unsaved edits in an open editor are part of the plan the person executes. */
  async saveIfDirty(path: string): Promise<void> {
    const uri = vscode.Uri.file(path).toString();
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (!document?.isDirty) return;
    // The workbench refuses a save while it is still settling a file it just opened (seen in
    // code-server a moment after the plan file was written): a few tries, then a clear error.
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
      if ((await document.save()) || !document.isDirty) return;
      await new Promise((resolve) => setTimeout(resolve, SAVE_RETRY_MS));
    }
    throw new Error(`Could not save the edited plan ${path}; nothing was executed. Save it, then execute it again.`);
  }
}
