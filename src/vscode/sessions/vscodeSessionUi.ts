import * as vscode from 'vscode';
import { exportFileName, sessionToJson, sessionToMarkdown } from '../../core/session';
import type { ExportSource } from '../../core/session';
import type { ExportFormat, SessionUi } from '../../chat/sessions/sessionUi';

/**
 * Markdown opens as a new untitled editor: a transcript is read first, then saved or shared
 * if wanted (the Markdown preview works on it at once). JSON is data for another program, so
 * it goes straight to a file through the save dialog, in the workspace folder by default.
 */
export class VscodeSessionUi implements SessionUi {
  async confirmDelete(title: string): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the conversation "{0}"?', title || vscode.l10n.t('Untitled chat')),
      { modal: true, detail: vscode.l10n.t('Its log is removed from disk. This cannot be undone.') },
      vscode.l10n.t('Delete'),
    );
    return choice === vscode.l10n.t('Delete');
  }

  async exportSession(source: ExportSource, format: ExportFormat): Promise<boolean> {
    if (format === 'markdown') {
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: sessionToMarkdown(source) });
      await vscode.window.showTextDocument(doc, { preview: false });
      return true;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = exportFileName(source, 'json');
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export conversation as JSON'),
      saveLabel: vscode.l10n.t('Export'),
      filters: { JSON: ['json'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    });
    if (!target) return false;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(sessionToJson(source)));
    return true;
  }
}
