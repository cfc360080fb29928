import * as vscode from 'vscode';
import type { ChangeReview, PendingChange } from './changeReview';

export interface DiffCommandDeps {
  /** The review of pending changes, only if Keel's runtime is loaded (nothing can be pending otherwise). */
  review(): ChangeReview | undefined;
}

/** Ways the commands name a change: its approval id, a Keel diff document (editor title), or nothing (the focused or only one). */
type ChangeArg = string | vscode.Uri | undefined;

const nothingPending = (): string => vscode.l10n.t('No Keel change is waiting for a decision.');

/**
 * Accept / Reject for the change in the focused diff (editor title bar, Ctrl/Cmd+Enter and
 * Ctrl/Cmd+Shift+Backspace, the palette), for all pending changes, and for single hunks (CodeLens).
 * They settle the same approval as the chat card.
 */
export function registerDiffCommands(deps: DiffCommandDeps): vscode.Disposable[] {
  const register = (id: string, run: (review: ChangeReview, ...args: unknown[]) => Promise<unknown>): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      const review = deps.review();
      if (!review || review.list().length === 0) {
        void vscode.window.showInformationMessage(nothingPending());
        return false;
      }
      return run(review, ...args);
    });

  return [
    register('keel.acceptChange', async (review, arg) => {
      const entry = await pick(review, arg as ChangeArg, vscode.l10n.t('Accept which change?'));
      return entry ? review.decide(entry.id, { approved: true, scope: 'once' }) : false;
    }),
    register('keel.rejectChange', async (review, arg, given) => {
      const entry = await pick(review, arg as ChangeArg, vscode.l10n.t('Reject which change?'));
      if (!entry) return false;
      const reason = typeof given === 'string' ? given : await askReason(vscode.l10n.t('Reject the change to {0}', entry.change.displayPath));
      if (reason === undefined) return false;
      return review.decide(entry.id, reason ? { approved: false, reason } : { approved: false });
    }),
    register('keel.acceptAllChanges', async (review) => {
      const results = await Promise.all(review.list().map((entry) => review.decide(entry.id, { approved: true, scope: 'once' })));
      return results.filter(Boolean).length;
    }),
    register('keel.rejectAllChanges', async (review, given) => {
      const entries = review.list();
      const reason = typeof given === 'string' ? given : await askReason(entries.length === 1 ? vscode.l10n.t('Reject the 1 pending change') : vscode.l10n.t('Reject all {0} pending changes', entries.length));
      if (reason === undefined) return 0;
      const results = await Promise.all(entries.map((entry) => review.decide(entry.id, reason ? { approved: false, reason } : { approved: false })));
      return results.filter(Boolean).length;
    }),
    register('keel.acceptHunk', async (review, id, index, beforeStart) => {
      const entry = hunkTarget(review, id, index, beforeStart);
      return entry ? review.acceptHunk(entry, index as number) : false;
    }),
    register('keel.rejectHunk', async (review, id, index, beforeStart) => {
      const entry = hunkTarget(review, id, index, beforeStart);
      return entry ? review.rejectHunk(entry, index as number) : false;
    }),
  ];
}

async function pick(review: ChangeReview, arg: ChangeArg, prompt: string): Promise<PendingChange | undefined> {
  if (typeof arg === 'string') return known(review.get(arg));
  if (arg instanceof vscode.Uri) return known(review.forUri(arg));
  const current = review.current();
  if (current) return current;
  const items = review.list().map((entry) => ({ label: entry.change.displayPath, description: entry.title, entry }));
  const chosen = await vscode.window.showQuickPick(items, { placeHolder: prompt });
  return chosen?.entry;
}

function known(entry: PendingChange | undefined): PendingChange | undefined {
  if (!entry) void vscode.window.showInformationMessage(vscode.l10n.t('That Keel change is no longer waiting for a decision.'));
  return entry;
}

/** The hunk a CodeLens named, if the proposal still has it where the lens was drawn. */
function hunkTarget(review: ChangeReview, id: unknown, index: unknown, beforeStart: unknown): PendingChange | undefined {
  const entry = typeof id === 'string' ? known(review.get(id)) : undefined;
  if (!entry?.review || typeof index !== 'number') return undefined;
  const hunk = entry.review.hunks()[index];
  if (!hunk || (typeof beforeStart === 'number' && hunk.beforeStart !== beforeStart)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The proposal changed since that hunk was shown; try again on the updated one.'));
    return undefined;
  }
  return entry;
}

/** The optional reason for a rejection; undefined when the person backed out. */
function askReason(title: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Why? The agent reads this (optional; Enter rejects, Escape cancels).'),
    placeHolder: vscode.l10n.t('Reason (optional)'),
  }).then((value) => (value === undefined ? undefined : value.trim().slice(0, 2000)));
}
