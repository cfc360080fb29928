import type { LogFn } from '../protocol/log';
import type { PlanInfo } from '../protocol/planState';
import type { AgentMode } from '../protocol/sessionState';
import type { ChangeApprovalHooks } from './approvals/approvalFlow';
import type { ConversationStateOptions } from './conversations/conversationState';
import type { CoreAccess } from './runtime/coreAccess';
import type { PlanFiles } from './runs/planRuns';
import type { SessionUi } from './sessions/sessionUi';
import type { WorktreeSessionHooks } from './sessions/worktreeCores';

/** What the chat controller is built from: the core, the log, and the editor's hooks. */
export interface ChatControllerOptions {
  core: CoreAccess;
  log: LogFn;
  /** Workspace Trust, for the summary when the core cannot be built. */
  trusted(): boolean;
  /**
   * Running or waiting for the person changed, in any conversation of the window (the status
   * bar follows it); `runningInView`: the conversation in view runs (what Stop acts on).
   */
  onActivity?(activity: { running: boolean; approvals: number; runningInView: boolean }): void;
  /**
   * An approval is waiting. In the conversation in view: bring the view into sight without
   * taking focus. In a background one (`background` names it): tell the person, offering to open it.
   */
  onApprovalNeeded?(background?: { sessionId: string; title: string }): void;
  /** The number of approvals waiting across the window's conversations changed (the view's badge). */
  onApprovalsWaiting?(count: number): void;
  /** keel.maxConcurrentRuns: runs past it wait for others to end (read on every run). */
  maxConcurrentRuns?(): number;
  /** The conversation in view changed (saved for the first time, resumed, or a new empty one: null). */
  onSessionChange?(id: string | null): void;
  /** The diff editor side of file-change approvals. */
  changes?: ChangeApprovalHooks;
  state?: ConversationStateOptions;
  /** Plan mode turned on or off (the status bar follows it). */
  onModeChange?(mode: AgentMode): void;
  /** The conversation's newest plan changed (the command palette's Run Plan follows it). */
  onPlanChange?(plan: PlanInfo | null): void;
  /** The editor side of plan files; without it plans cannot be opened. */
  planFiles?: PlanFiles;
  /** Delete confirmation and export targets (absent: those actions are refused). */
  sessionUi?: SessionUi;
  /** Whether to name new conversations with the small model after their first reply. */
  generateTitles?(): boolean;
  /** Worktree conversations: which core a conversation runs on, and cleanup when one is deleted. */
  worktrees?: WorktreeSessionHooks;
}
