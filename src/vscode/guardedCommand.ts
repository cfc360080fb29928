import * as vscode from 'vscode';
import { errorMessage } from '../core/errors';

/** A command whose failure is logged and shown to the person ("Keel: …"), never thrown into VS Code. */
export function guardedCommand(log: vscode.LogOutputChannel, id: string, run: (...args: unknown[]) => Promise<unknown> | unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      await run(...args);
    } catch (err) {
      log.error(`${id} failed: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Keel: {0}', errorMessage(err)));
    }
  });
}
