import { textOf } from './worktreeDiff';
import type { WorktreeFileChange } from './worktreeDiff';

/**
 * The two texts a worktree file is reviewed as, hunk by hunk. A file git sees as renamed is
 * reviewed against its old path's content, so its edits are hunks like any other file's; only
 * a move without edits is shown as the whole file, since it has no hunk to accept.
 */
export function reviewTexts(change: WorktreeFileChange): { before: string | null; after: string | null } {
  const after = change.current === null ? null : (textOf(change.current) ?? null);
  const pureMove = change.status === 'renamed' && change.base !== null && change.current !== null && change.base.equals(change.current);
  const before = change.base === null || pureMove ? null : (textOf(change.base) ?? null);
  return { before, after };
}
