// The worktrees subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { checkoutAtBase, checkoutBytes, checkoutPath, writeToCheckout } from './checkoutWrite';
export { checkWorktreeName, createWorktree, defaultWorktreeName, defaultWorktreeRoot, isWorktreeName, removeWorktree, repoRoot } from './gitWorktree';
export type { Worktree } from './gitWorktree';
export { reviewTexts } from './reviewTexts';
export { removeWorktreeFolder } from './worktreeCleanup';
export { worktreeChanges } from './worktreeDiff';
export type { WorktreeFileChange } from './worktreeDiff';
