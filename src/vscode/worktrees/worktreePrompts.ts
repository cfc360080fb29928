import * as vscode from 'vscode';
import type { Worktree } from '../../core/worktrees';

/** What removing a worktree asks the person; `undefined`: keep it. */
export type WorktreeRemoval = 'folder' | 'folderAndBranch' | undefined;

/** The questions worktree cleanup asks, as modal dialogs (a test answers them through its hook instead). */
export interface WorktreePrompts {
  /** Discard: the worktree only, with its branch, or not at all. */
  discard(worktree: Worktree): Promise<WorktreeRemoval>;
  /** A deleted conversation worked in this worktree: remove it too? */
  afterDelete(worktree: Worktree): Promise<WorktreeRemoval>;
  /** The worktree holds uncommitted work in these files: lose it? */
  loseUncommitted(worktree: Worktree, files: string[]): Promise<boolean>;
}

export const modalWorktreePrompts: WorktreePrompts = {
  discard: (worktree) =>
    askRemoval(
      vscode.l10n.t('Discard the worktree of this conversation?'),
      vscode.l10n.t('{0} on branch {1}. The branch stays unless you discard it too; its commits are then gone from your branches.', worktree.path, worktree.branch),
      vscode.l10n.t('Discard worktree'),
      vscode.l10n.t('Discard worktree and branch'),
    ),
  afterDelete: (worktree) =>
    askRemoval(
      vscode.l10n.t('The deleted conversation worked in a worktree. Remove it too?'),
      vscode.l10n.t('{0} on branch {1}. Keeping it leaves both as they are.', worktree.path, worktree.branch),
      vscode.l10n.t('Remove worktree'),
      vscode.l10n.t('Remove worktree and branch'),
    ),
  async loseUncommitted(_worktree, files) {
    const remove = vscode.l10n.t('Remove with uncommitted work');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('The worktree has uncommitted work in {0} file(s). Remove it anyway? That work is lost.', files.length),
      { modal: true, detail: files.slice(0, 10).join('\n') + (files.length > 10 ? '\n…' : '') },
      remove,
    );
    return answer === remove;
  },
};

/** A modal with two ways to remove; dismissing it keeps everything. */
async function askRemoval(question: string, detail: string, folderOnly: string, withBranch: string): Promise<WorktreeRemoval> {
  const answer = await vscode.window.showWarningMessage(question, { modal: true, detail }, folderOnly, withBranch);
  return answer === withBranch ? 'folderAndBranch' : answer === folderOnly ? 'folder' : undefined;
}
