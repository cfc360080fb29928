import * as vscode from 'vscode';
import type { AgentMode } from '../../protocol/sessionState';

/** A status bar item while plan mode is on: Keel only reads and plans. Clicking it turns plan mode off. */
export class PlanModeStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(toggleCommand: string) {
    this.item = vscode.window.createStatusBarItem('keel.planMode', vscode.StatusBarAlignment.Left, 99);
    this.item.name = vscode.l10n.t('Keel Plan Mode');
    this.item.text = `$(checklist) ${vscode.l10n.t('Keel: Plan mode')}`;
    this.item.tooltip = vscode.l10n.t('Keel is in plan mode: it reads and plans, and changes nothing. Click to switch to act mode.');
    this.item.command = toggleCommand;
  }

  update(mode: AgentMode): void {
    if (mode === 'plan') this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
