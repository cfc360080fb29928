import * as vscode from 'vscode';
import { saveWithRetries } from '../workspace/documentSave';
import type { PlanFiles } from '../../chat/runs/planRuns';

/**
 * Plans open as ordinary Markdown files (they live in the session's folder under Keel's
 * home), so the person edits them with the whole editor; what is saved is what executes.
 */
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
    if (await saveWithRetries(document)) return;
    throw new Error(vscode.l10n.t('Could not save the edited plan {0}; nothing was executed. Save it, then execute it again.', path));
  }
}
