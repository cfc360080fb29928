import { existsSync } from 'node:fs';
import { runGit } from '../llmsContext/runGit';
import { KeelError } from '../errors';
import { removeWorktree, uncommittedChanges } from './gitWorktree';
import type { Worktree } from './gitWorktree';

/** Asks the person whether uncommitted work may go (the files, as `git status` names them); true: remove anyway. */
export type ConfirmLoss = (files: string[]) => Promise<boolean>;

export type CleanupOutcome = 'removed' | 'kept';

/**
 * Takes a worktree's folder away, asking first when it holds uncommitted work (never lost
 * without a yes). The branch goes too only when `deleteBranch`, even with commits on it that
 * no other branch has: the person ticked it. A folder already gone is pruned from git's list.
 */
export async function removeWorktreeFolder(wt: Pick<Worktree, 'path' | 'branch' | 'repo'>, opts: { deleteBranch: boolean; confirm: ConfirmLoss }): Promise<CleanupOutcome> {
  let force = false;
  if (existsSync(wt.path)) {
    const changes = await uncommittedChanges(wt.path);
    if (changes.length > 0) {
      if (!(await opts.confirm(changes.map((line) => line.slice(3))))) return 'kept';
      force = true;
    }
    await removeWorktree(wt, { force });
  } else {
    const pruned = await runGit(wt.repo, ['worktree', 'prune']);
    if (!pruned.ok) throw new KeelError('config', `git worktree prune failed in ${wt.repo}: ${pruned.error}`);
  }
  if (opts.deleteBranch) {
    const deleted = await runGit(wt.repo, ['branch', '-D', wt.branch]);
    if (!deleted.ok && !/not found/.test(deleted.error ?? '')) throw new KeelError('config', `Deleting the branch ${wt.branch} failed: ${deleted.error}`);
  }
  return 'removed';
}
