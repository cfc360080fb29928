import * as vscode from 'vscode';

/**
 * The status bar item while Keel works: a spinner, or a call to act while an approval
 * waits. Clicking it shows the chat. Hidden when idle.
 */
export class ActivityStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(focusCommand: string) {
    this.item = vscode.window.createStatusBarItem('keel.activity', vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'Keel';
    this.item.command = focusCommand;
  }

  update(activity: { running: boolean; approvals: number }): void {
    if (activity.approvals > 0) {
      this.item.text = `$(bell-dot) ${vscode.l10n.t('Keel: approval needed')}`;
      this.item.tooltip = vscode.l10n.t('Keel is waiting for you to approve or reject a tool call. Click to show the chat.');
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.show();
      return;
    }
    this.item.backgroundColor = undefined;
    if (activity.running) {
      this.item.text = '$(sync~spin) Keel';
      this.item.tooltip = vscode.l10n.t('Keel is working. Click to show the chat.');
      this.item.show();
      return;
    }
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
