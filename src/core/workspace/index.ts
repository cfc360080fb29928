// The workspace subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { expectNoRedirect, readFileNoFollow, writeFileNoFollow } from './noFollowFiles';
export { describeProjects } from './projectInfo';
export { matchesProtectedPattern } from './protectedPaths';
