import type { z } from 'zod';
import type { SessionHistory } from '../history/sessionHistory';
import type { Host } from '../host';
import type { ChildEnvPolicy } from '../env/childEnv';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import type { CommandRules } from '../shell/commandRules';
import type { Workspace } from '../workspace/workspace';
import type { BackgroundJobs } from './backgroundJobs';
import type { FileReadTracker } from './fileReadTracker';
import type { TodoStore } from './todoStore';
import type { ToolPresentation } from './toolPresentation';

/** How a tool is approved. `read` never asks; the others follow the approval mode. */
export type ToolCategory = 'read' | 'write' | 'command' | 'network';

/** A proposed change to one file, computed in memory before anything touches the disk. */
export interface FileChange {
  /** Absolute, real path inside the workspace. */
  path: string;
  /** Path relative to its workspace folder, for display. */
  displayPath: string;
  /** Current content, or null when the file does not exist yet. */
  before: string | null;
  /** Proposed content, or null when the tool deletes the file. */
  after: string | null;
}

/** What the approval card shows: the key argument of the call. */
export interface ToolPreview {
  /** One line: the command, the path, the URL. */
  summary: string;
  /** Absolute paths the call touches (checked against protected paths). */
  paths: string[];
  /** For file-editing tools: the change that will be applied. */
  change?: FileChange;
}

/**
 * What the host is asked when a call needs the person's decision. The page gets the same
 * fields (`toolApprovalRequestSchema`), plus the host's approval id and the change as a diff.
 */
export interface ApprovalRequest {
  toolCallId: string;
  /** The tool's name. */
  tool: string;
  category: ToolCategory;
  input: unknown;
  /** One line: the command, path or URL. */
  summary: string;
  /** Paths the call touches, relative to their workspace folder. */
  paths: string[];
  /** The call touches a protected path: shown as sensitive, never auto-approved. */
  protected: boolean;
  change?: FileChange;
  /** Which approval rule sent this to the person. */
  rule: string;
  /**
   * What "always allow" would remember instead of the whole tool: command prefixes such as
   * `npm test` (bash). Absent for bash when no prefix could allow the call: approve once only.
   */
  allowPrefixes?: string[];
  /** A command asks for network access in the OS sandbox. */
  network?: boolean;
  /** A command asks to run outside the OS sandbox: never remembered by "always allow". */
  unsandboxed?: boolean;
  /** A command asks for a writable workspace that its allow rule alone does not give (manual mode). */
  writeAccess?: boolean;
}

/** The person's answer, from the host to the tool that runs (`ToolContext.approval`). */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
  /** 'session' allows this tool without asking for the rest of the session. */
  scope?: 'once' | 'session';
  /** Content the person settled on for a file change (edited proposal, accepted hunks). */
  content?: string;
  /** What the model should know about the person's changes to the proposal. */
  note?: string;
  /**
   * A command that runs because an allow rule matched, not because the person or the mode
   * allowed writing (manual mode): it gets the workspace read-only.
   */
  readOnlyWorkspace?: boolean;
}

export type ToolOutputPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mediaType: string };

export interface ToolResult {
  /** Plain text, or parts when the result carries images. */
  output: string | ToolOutputPart[];
  isError?: boolean;
  /** For commands: whether it ran in the OS sandbox (reported in stream-json). */
  sandboxed?: boolean;
  /** An MCP tool's result as its server sent it, when it names an MCP App to show it (never for the model). */
  mcp?: McpCallResult;
}

/** What an MCP server answered to `tools/call`, and the MCP App (a `ui://` resource) that shows it, if any. */
export interface McpCallResult {
  server: string;
  /** The server's own name of the tool. */
  tool: string;
  /** The `CallToolResult` (content, structuredContent, isError, _meta) as JSON. */
  result: Record<string, unknown>;
  appUri?: string;
}

export interface ToolContext {
  signal: AbortSignal;
  workspace: Workspace;
  host: Host;
  reads: FileReadTracker;
  todos: TodoStore;
  toolCallId: string;
  /** The approval decision for this call, when one was made (write tools apply `content`). */
  approval?: ApprovalAnswer;
  /** The preview computed before approval, when the tool has `preview`. */
  preview?: ToolPreview;
  /** The conversation so far, whole (for history_search); absent outside a session. */
  history?: SessionHistory;
  /** Command prefix rules (config and session allowances), for tools that run commands. */
  commandRules?: CommandRules;
  /** Background commands of this conversation; absent where they cannot outlive the call. */
  jobs?: BackgroundJobs;
  /**
   * Snapshots of the workspace around a command, taken outside whatever sandbox runs it: call
   * `begin()` just before the command and `end()` once it has ended (for a background job, when
   * it exits or is killed), so what it changed can be listed and undone.
   */
  snapshots?: { begin(): Promise<{ end(): Promise<unknown> }> };
  /** The OS sandbox commands run in; absent: they run without one. */
  sandbox?: CommandSandbox;
  /** What commands inherit of Keel's environment besides the built-in allow-list; absent: nothing more. */
  envPolicy?: ChildEnvPolicy;
  /** Output as it arrives (a running command's), for the view to show live; not what the model gets. */
  onOutput?(text: string): void;
  /** The latest progress a long call reported (an MCP server's progress), for the card and the CLI. */
  onProgress?(progress: ToolProgress): void;
  /** Told an MCP tool's own answer, where the caller needs it whole (an MCP App's call). */
  onMcpResult?(result: McpCallResult): void;
}

/** How far a running call says it is: a percent when the total is known, and/or a message. */
export interface ToolProgress {
  percent?: number;
  message?: string;
}

/**
 * A tool's detailed verdict on one call. A tool that answers with one manages its own
 * "always allow": only `allowPrefixes` are remembered, never the whole tool.
 */
export interface ApprovalHint {
  needsApproval: boolean;
  /** Why the person must decide in every mode but yolo, whatever else would allow the call. */
  insist?: string;
  /** Command prefixes "always allow" would add for this call; absent when it cannot be allowed that way. */
  allowPrefixes?: string[];
  /** Why the person must decide in every mode, yolo included, and no allowance may remember it (a command outside the sandbox). */
  alwaysAsk?: string;
  /** A command confined by the OS sandbox (network only from the person's list): autoEdit lets it run. */
  sandboxed?: boolean;
  /** A command a rule allows writes files through redirections: in manual mode that needs approval as a write would. */
  writesFiles?: boolean;
  /** The call asks for network access (shown on the approval card). */
  network?: boolean;
  /** The call asks to run outside the OS sandbox (shown on the approval card). */
  unsandboxed?: boolean;
  /** The call asks for a writable workspace that an allow rule alone would not give (shown on the approval card). */
  writeAccess?: boolean;
  /** Why the call needs approval, shown as the rule when the person is asked. */
  why?: string;
}

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  category: ToolCategory;
  inputSchema: z.ZodType<Input>;
  /** The JSON Schema the model sees, when the tool brings its own (MCP tools); else derived from inputSchema. */
  jsonSchema?: Record<string, unknown>;
  /** Return false when this particular call needs no approval; an ApprovalHint says more. */
  needsApproval?(input: Input, ctx: ToolContext): boolean | ApprovalHint | Promise<boolean | ApprovalHint>;
  /** Computes what the call would do, without side effects; errors here become tool errors. */
  preview?(input: Input, ctx: ToolContext): Promise<ToolPreview>;
  execute(input: Input, ctx: ToolContext): Promise<ToolResult>;
  /** How a call looks on its card (called with checked input); absent: the generic key/value card. */
  present?(input: Input): ToolPresentation;
}

/** Keeps the input type checked at the definition site while storing tools in one list. */
export function defineTool<Input>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool;
}

export type AnyTool = ToolDefinition<any>;

export function textResult(text: string, isError = false): ToolResult {
  return isError ? { output: text, isError } : { output: text };
}

export function errorResult(text: string): ToolResult {
  return { output: text, isError: true };
}
