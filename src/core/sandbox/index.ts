// The sandbox subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { describeShortfall } from './missingProtections';
export { sandboxedProcessesGoing } from './runningSandboxes';
export { sandboxModes } from './sandboxTypes';
export type { SandboxMode } from './sandboxTypes';
