import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/tools';
import { errorMessage } from '../../core/errors';
import type { Worktree } from '../../core/worktrees';
import { checkoutAtBase, checkoutBytes, checkoutPath, writeToCheckout } from '../../core/worktrees';
import { reviewTexts } from '../../core/worktrees';
import { worktreeChanges } from '../../core/worktrees';
import type { WorktreeFileChange } from '../../core/worktrees';
import { matchesProtectedPattern } from '../../core/workspace';
import type { LogFn } from '../../protocol/log';
import type { ApprovalDecider, ChangeReview } from '../diff/changeReview';

/** A worktree file under review: where it goes in the checkout and what the checkout held when it was shown. */
interface OpenApply {
  worktree: Worktree;
  change: WorktreeFileChange;
  /** The checkout's bytes the review was made against; the write refuses when they changed. */
  expected: Buffer | null;
  after: string | null;
}

const ID_PREFIX = 'worktree-apply-';

/**
 * "Review Worktree Changes": the worktree's whole change against its base, file by file, in
 * the same diff editors, hunk lenses and Accept/Reject commands as the agent's proposed edits.
 * What the person accepts is written into their checkout byte for byte; a file the checkout
 * changed since the base is named and never overwritten.
 */
export class WorktreeReview implements ApprovalDecider {
  private readonly open = new Map<string, OpenApply>();
  private next = 0;

  constructor(
    private readonly changes: ChangeReview,
    private readonly log: LogFn,
    /** The chat's approvals: every decision that is not about a worktree file goes there. */
    private readonly chat: () => ApprovalDecider,
  ) {}

  decideApproval(approvalId: string, answer: ApprovalAnswer): Promise<boolean> {
    const entry = this.open.get(approvalId);
    if (!entry) return this.chat().decideApproval(approvalId, answer);
    return this.settle(approvalId, entry, answer);
  }

  /**
   * Shows the file list (or, given `path`, that file's diff at once). Returns the approval ids
   * of the diffs it opened.
   */
  async review(worktree: Worktree, path?: string): Promise<string[]> {
    const all = await worktreeChanges(worktree);
    if (all.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The worktree on {0} has no changes against the commit it started from.', worktree.branch));
      return [];
    }
    const items = await Promise.all(all.map(async (change) => ({ change, atBase: await checkoutAtBase(worktree.repo, change) })));
    if (path !== undefined) {
      const item = items.find((i) => i.change.path === path);
      if (!item) throw new Error(vscode.l10n.t('The worktree on {0} did not change {1}.', worktree.branch, path));
      const id = await this.openOne(worktree, item.change, item.atBase);
      return id ? [id] : [];
    }
    type Pick = vscode.QuickPickItem & { item?: (typeof items)[number] };
    const picks: Pick[] = [
      { label: `$(files) ${vscode.l10n.t('All {0} files', items.length)}`, description: vscode.l10n.t('open every diff') },
      ...items.map((item) => ({
        label: `$(${item.atBase ? 'diff' : 'warning'}) ${item.change.path}`,
        description: describe(item.change),
        ...(item.atBase ? {} : { detail: vscode.l10n.t('Changed in your checkout since the worktree started: not applied from here.') }),
        item,
      })),
    ];
    const chosen = await vscode.window.showQuickPick(picks, {
      title: vscode.l10n.t('Changes on {0} against its base', worktree.branch),
      placeHolder: vscode.l10n.t('A file to review: accepted hunks are written into your checkout'),
      matchOnDescription: true,
    });
    if (!chosen) return [];
    const targets = chosen.item ? [chosen.item] : items.filter((i) => i.atBase);
    const ids: string[] = [];
    for (const t of targets) {
      const id = await this.openOne(worktree, t.change, t.atBase);
      if (id) ids.push(id);
    }
    return ids;
  }

  private async openOne(worktree: Worktree, change: WorktreeFileChange, atBase: boolean): Promise<string | undefined> {
    if (!atBase) {
      const compare = vscode.l10n.t('Compare');
      this.log('info', `worktree ${worktree.branch}: ${change.path} changed in the checkout since the base; not offered for applying`);
      // Not awaited: the notification stays until the person acts on it, the review goes on.
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('{0} changed in your checkout since the worktree started: Keel does not overwrite it. Compare your version with the worktree\'s and merge by hand, or merge the branch {1}.', change.path, worktree.branch),
          compare,
        )
        .then((answer) => (answer === compare ? this.compare(worktree, change) : undefined))
        .then(undefined, (err: unknown) => this.log('warn', `comparing ${change.path} failed: ${errorMessage(err)}`));
      return undefined;
    }
    // Asked again for a file whose review is still open: that review comes forward.
    for (const [openId, open] of this.open) {
      const pending = open.worktree.path === worktree.path && open.change.path === change.path ? this.changes.get(openId) : undefined;
      if (pending) {
        await this.changes.open(pending, true);
        return openId;
      }
    }
    const expected = await checkoutBytes(worktree.repo, change.status === 'renamed' ? change.oldPath! : change.path);
    if (change.binary) {
      await this.applyWhole(worktree, change, expected);
      return undefined;
    }
    const id = `${ID_PREFIX}${++this.next}`;
    // A rename is reviewed at its new path against the old path's content; the old path goes when it is applied.
    const { before, after } = reviewTexts(change);
    const request: ApprovalRequest = {
      toolCallId: id,
      tool: 'worktree',
      category: 'write',
      input: { path: change.path },
      summary: change.path,
      paths: [change.path],
      protected: matchesProtectedPattern(change.path),
      change: { path: checkoutPath(worktree.repo, change.path), displayPath: change.path, before, after },
      rule: 'worktree review',
    };
    this.open.set(id, { worktree, change, expected, after });
    this.changes.opened(id, request);
    const entry = this.changes.get(id);
    if (entry) await this.changes.open(entry, true);
    return id;
  }

  private async settle(id: string, entry: OpenApply, answer: ApprovalAnswer): Promise<boolean> {
    const { change, worktree } = entry;
    try {
      if (answer.approved) {
        const amended = await this.changes.amend(id, answer);
        const content = amended.content ?? entry.after;
        await writeToCheckout(worktree.repo, change, content === null ? null : Buffer.from(content, 'utf8'), entry.expected);
        this.log('info', `worktree ${worktree.branch}: applied ${change.path} to the checkout`);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Keel: {0} written into your checkout', change.path), 4000);
      }
    } catch (err) {
      this.log('warn', `worktree ${worktree.branch}: applying ${change.path} failed: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Keel did not write {0} into your checkout: {1}', change.path, errorMessage(err)));
    } finally {
      this.open.delete(id);
      this.changes.closed(id);
    }
    return true;
  }

  /** Binary files and links have no hunks: the whole file, after a yes. */
  private async applyWhole(worktree: Worktree, change: WorktreeFileChange, expected: Buffer | null): Promise<void> {
    const apply = vscode.l10n.t('Apply');
    const question =
      change.current === null
        ? vscode.l10n.t('Delete {0} from your checkout, as the worktree did?', change.path)
        : vscode.l10n.t('{0} is not text ({1} bytes). Write the worktree\'s version into your checkout?', change.path, change.current.length);
    if ((await vscode.window.showWarningMessage(question, { modal: true }, apply)) !== apply) return;
    try {
      await writeToCheckout(worktree.repo, change, change.current, expected);
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Keel did not write {0} into your checkout: {1}', change.path, errorMessage(err)));
    }
  }

  private async compare(worktree: Worktree, change: WorktreeFileChange): Promise<void> {
    const mine = vscode.Uri.file(checkoutPath(worktree.repo, change.path));
    const theirs = vscode.Uri.file(join(worktree.path, ...change.path.split('/')));
    await vscode.commands.executeCommand('vscode.diff', mine, theirs, vscode.l10n.t('{0} (your checkout ↔ {1})', basename(change.path), worktree.branch));
  }
}

function describe(change: WorktreeFileChange): string {
  const what =
    change.status === 'added'
      ? vscode.l10n.t('added')
      : change.status === 'deleted'
        ? vscode.l10n.t('deleted')
        : change.status === 'renamed'
          ? vscode.l10n.t('renamed from {0}', change.oldPath ?? '')
          : vscode.l10n.t('modified');
  return change.binary ? `${what} · ${vscode.l10n.t('binary')}` : what;
}
