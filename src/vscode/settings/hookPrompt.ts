import * as vscode from 'vscode';
import type { Hook } from '../../core/hooks';

/**
 * Asks before a hook the workspace ships runs for the first time (and again whenever its
 * command, matcher or event changes): a modal dialog shows its file, event and command.
 */
export async function askToRunHook(hook: Hook): Promise<boolean> {
  const allow = vscode.l10n.t('Allow');
  const matcher = hook.matcher ? vscode.l10n.t(' for tools matching {0}', hook.matcher) : '';
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t("Run this workspace's {0} hook from {1}?", hook.event, hook.source),
    { modal: true, detail: vscode.l10n.t('It runs this command in the sandbox at every {0} event{1}:\n\n{2}', hook.event, matcher, hook.command) },
    allow,
  );
  return choice === allow;
}
