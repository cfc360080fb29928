// The git subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { readCommitChanges, writeCommitMessage } from './commitMessage';
export type { CommitChanges } from './commitMessage';
export { reviewTarget } from './reviewTarget';
export type { ReviewTarget } from './reviewTarget';
