import * as vscode from 'vscode';
import type { KeelRuntime } from '../keelRuntime';
import { prefillChat } from './chatPrefill';

/**
 * "Keel: Run Command or Skill…": the person's command files and skills in a quick pick; the
 * chosen one is written into the composer as `/name ` for its arguments (nothing is sent).
 */
export async function pickSlashCommand(runtime: KeelRuntime): Promise<void> {
  const entries = await runtime.slashCommands();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No command files or skills found. Keel reads .claude/commands, .github/prompts, .keel/commands and the skills folders (see the README).'),
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: `/${e.name}`,
      description: e.kind === 'skill' ? vscode.l10n.t('skill') : vscode.l10n.t('command'),
      detail: e.description ? `${e.description} — ${e.source}` : e.source,
      iconPath: new vscode.ThemeIcon(e.kind === 'skill' ? 'book' : 'symbol-event'),
    })),
    { placeHolder: vscode.l10n.t('Pick a command or skill to write into the chat'), matchOnDescription: true, matchOnDetail: true },
  );
  if (picked) await prefillChat(runtime, { text: `${picked.label} ` }, false);
}
