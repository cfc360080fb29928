// The tools subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { presentByName } from './builtinTools';
export { killProcessTree, processGroupAlive } from './process/killProcessTree';
export { terminalCommandLine } from './process/terminalCommandLine';
export type { TerminalCommand, TerminalRan, TerminalRun } from './process/terminalRun';
export { splitBom } from './text/lineEndings';
export { MiddleTruncator } from './text/middleTruncator';
export { TerminalText } from './text/terminalText';
export type { TodoItem } from './todoStore';
export type { AnyTool, ApprovalAnswer, ApprovalRequest, FileChange, McpCallResult, ToolCategory, ToolContext, ToolDefinition, ToolPreview, ToolResult } from './tool';
export type { ToolPresentation } from './toolPresentation';
