import * as vscode from 'vscode';

/**
 * Approvals waiting in the window's conversations, where the person can see them: a badge
 * on the Keel view (VS Code shows it on the activity-bar icon too), and for a conversation
 * in the background a notification naming it, whose "Open" brings it into view. Nothing
 * is answered for the person: the run waits.
 */
export class ApprovalNotices {
  private count = 0;
  private view: vscode.WebviewView | undefined;

  constructor(private readonly open: (sessionId: string) => Promise<void>) {}

  /** The view VS Code created (again): it gets the badge as it stands. */
  attach(view: vscode.WebviewView): void {
    this.view = view;
    this.paint();
  }

  detach(view: vscode.WebviewView): void {
    if (this.view === view) this.view = undefined;
  }

  /** The badge's number now (what the view was given). */
  get badge(): number {
    return this.count;
  }

  waiting(count: number): void {
    this.count = count;
    this.paint();
  }

  /** A conversation the person is not looking at waits for an approval. */
  async backgroundApproval(conversation: { sessionId: string; title: string }): Promise<void> {
    const open = vscode.l10n.t('Open');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Keel: "{0}" is waiting for your approval.', conversation.title), open);
    if (choice === open) await this.open(conversation.sessionId);
  }

  private paint(): void {
    const view = this.view;
    if (!view) return;
    if (this.count > 0) {
      view.badge = { value: this.count, tooltip: this.count === 1 ? vscode.l10n.t('1 approval waiting') : vscode.l10n.t('{0} approvals waiting', this.count) };
      return;
    }
    // VS Code's webview view keeps the last badge on the activity bar when it is set to
    // undefined; a badge of 0 replaces it and is drawn as none.
    if (view.badge) view.badge = { value: 0, tooltip: '' };
  }
}

/**
 * keel.maxConcurrentRuns as it applies: the person's value (or the default); a workspace may
 * only lower it (what a workspace ships narrows what Keel does, never widens it).
 */
export function maxConcurrentRuns(fallback: number): number {
  const seen = vscode.workspace.getConfiguration('keel').inspect<number>('maxConcurrentRuns');
  const own = seen?.globalValue ?? seen?.defaultValue ?? fallback;
  const shipped = [seen?.workspaceValue, seen?.workspaceFolderValue].filter((v): v is number => typeof v === 'number');
  const cap = Math.min(own, ...shipped);
  return Number.isFinite(cap) && cap >= 1 ? Math.floor(cap) : 1;
}
