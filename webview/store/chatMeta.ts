import type {
  AgentMode,
  ConfigSummary,
  ContextTrimmed,
  WorkspaceProjects,
  RuleInEffectInfo,
  RunState,
  SessionInfo,
  TodoItem,
  UiError,
  Usage,
} from '../../src/protocol/sessionState';
import type { McpStatusView } from '../../src/protocol/mcpStatus';
import type { ConversationActivity } from '../../src/protocol/conversationActivity';
import type { PlanInfo } from '../../src/protocol/planState';
import type { ToolApprovalRequest } from '../../src/protocol/toolApproval';
import type { Mention } from '../../src/protocol/uiMessage';

/** An error event kept until the person dismisses it; `id` is local to this page. */
export interface ShownError {
  id: number;
  error: UiError;
}

/** The model call failed and is being tried again. */
export interface RetryNote {
  attempt: number;
  maxAttempts: number;
  error: string;
}

/** Text the host asked the composer to show; `seq` changes on every request so the same text can be sent twice. */
export interface ComposerPrefill {
  seq: number;
  text?: string;
  mentions?: Mention[];
  mode?: AgentMode;
  /** Where the caret goes (the end of the text when absent). */
  caret?: number;
  /** Join the draft (mentions once each, text after it) instead of replacing it. */
  add?: boolean;
}

export type Panel = 'chat' | 'sessions';

/**
 * Everything the store holds besides the messages. Replaced immutably, one field at a
 * time, so a component selecting one field re-renders only when that field changes.
 */
export interface ChatMeta {
  /** False until the first snapshot arrives. */
  ready: boolean;
  session: SessionInfo;
  run: RunState;
  usage: Usage | null;
  todos: readonly TodoItem[];
  config: ConfigSummary;
  /** Open approval requests, oldest first. */
  approvals: readonly ToolApprovalRequest[];
  errors: readonly ShownError[];
  retry: RetryNote | null;
  /** The rules files the agent followed for the latest request. */
  rules: readonly RuleInEffectInfo[];
  /** The latest run left the oldest part of the conversation out of a request to fit the model. */
  trimmed: ContextTrimmed | null;
  panel: Panel;
  prefill: ComposerPrefill | null;
  /** The workspace folders as projects and the current one (multi-root); null until the host says. */
  workspaceProjects: WorkspaceProjects | null;
  /** MCP servers' states and their prompts (slash commands). */
  mcp: McpStatusView;
  /** The conversation's newest plan, or null. */
  plan: PlanInfo | null;
  /** Earlier messages of a long conversation the host has not sent (0: all are here). */
  earlierMessages: number;
  /** What the window's conversations are doing, by session id (null until the host says). */
  sessionActivity: Readonly<Record<string, ConversationActivity>> | null;
}

export function initialMeta(): ChatMeta {
  return {
    ready: false,
    session: { id: null, title: null },
    run: { running: false, mode: 'act', approvalMode: 'manual', model: null, queued: 0 },
    usage: null,
    todos: [],
    config: { modelConfigured: true, workspaceTrusted: true, problem: null },
    approvals: [],
    errors: [],
    retry: null,
    rules: [],
    trimmed: null,
    panel: 'chat',
    earlierMessages: 0,
    sessionActivity: null,
    prefill: null,
    workspaceProjects: null,
    mcp: { servers: [], prompts: [], resources: [] },
    plan: null,
  };
}
