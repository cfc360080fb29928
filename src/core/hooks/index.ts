// The hooks subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export type { Hook, HookEvent } from './hookFiles';
export type { HookApprover } from './hooks';
