import type { ApprovalMode } from '../core/projectTypes';
import type { ApprovalAnswer } from '../core/tools';
import type { FileChange } from '../core/tools';
import type { EventData } from '../protocol/catalogue';
import type { ConversationActivity } from '../protocol/conversationActivity';
import type { AgentMode, ConfigSummary } from '../protocol/sessionState';
import type { UiMessage } from '../protocol/uiMessage';
import { BranchActions } from './sessions/branchActions';
import { McpCards } from './approvals/mcpCards';
import type { ChatControllerOptions } from './chatControllerOptions';
import type { Context } from '../core/context';
import type { CoreAccess } from './runtime/coreAccess';
import type { Conversation } from './conversations/conversation';
import { ConversationWindow } from './conversations/conversationWindow';
import type { PlanControl } from './runs/planControl';
import { SessionActions } from './sessions/sessionActions';
import type { ViewLink } from './bus/viewSync';

/**
 * The host side of the chat, for one window: the conversation in view (whose events reach
 * the view) and the ones that keep running in the background (see ConversationWindow).
 * Requests from the view act on the conversation in view; approvals are settled wherever
 * they wait. The parts: the window, the session actions, the branch actions.
 *
 * The seam for conversations rooted elsewhere (a git worktree): `newSession({ core })`
 * starts a conversation whose Context comes from `core` (anything with `get()`/`peek()` of a
 * BuiltCore, as CoreLoader); every run, model check and folder choice of that conversation
 * uses it. Listing, opening and deleting sessions use the window's core.
 */
export class ChatController {
  private readonly window: ConversationWindow;
  /** New, listed, opened, renamed, deleted and exported conversations (the bus's `session.new`, `sessions.*`). */
  readonly sessions: SessionActions;
  /** Edit and resend, other versions, the earlier part of a long conversation. */
  readonly branches: BranchActions;
  /** MCP servers' questions and sampling requests, as cards in the conversation they came during. */
  readonly mcpCards: McpCards;

  constructor(opts: ChatControllerOptions) {
    this.window = new ConversationWindow(opts);
    this.sessions = new SessionActions({ core: opts.core, log: opts.log, window: this.window, sessionUi: opts.sessionUi, worktrees: opts.worktrees });
    this.mcpCards = new McpCards({
      conversations: () => this.window.all(),
      viewOpen: () => this.window.view.syncedView()?.isReady() === true,
      onNeeded: (conversation) => this.window.needsPerson(conversation),
      onRunEnd: (listener) => this.window.onRunEnd(listener),
      log: opts.log,
    });
    this.branches = new BranchActions(
      () => this.window.inView,
      () => this.window.view.sendSnapshot(),
    );
  }

  /** A run goes on in any conversation of the window (the core is not rebuilt under it). */
  get isRunning(): boolean {
    return this.window.isRunning;
  }

  /** Approvals and MCP request cards waiting for the person across the window's conversations. */
  get approvalsWaiting(): number {
    return this.window.approvalsWaiting;
  }

  /** The conversation as the view shows it now. */
  messages(): UiMessage[] {
    return this.current.state.messages();
  }

  /** The plans of the conversation in view: open, execute, refine, discard. */
  get plans(): PlanControl {
    return this.current.plans;
  }

  /** The conversation in view: the bus's requests about runs, reverts and the project act on it (see hostHandlers.ts). */
  get inView(): Conversation {
    return this.window.inView;
  }

  private get current(): Conversation {
    return this.inView;
  }

  /** Where the conversation in view gets its Context (a worktree's core for a worktree conversation). */
  coreInView(): CoreAccess {
    return this.current.core;
  }

  /** Some open conversation on this core runs or waits (a worktree must not be removed under it). */
  busyOn(core: CoreAccess): boolean {
    return this.window.all().some((c) => c.core === core && c.busy);
  }

  /** Multi-root: the name of the current project's folder of the conversation in view (a new worktree is made from it). */
  currentProjectName(ctx: Context): string {
    return this.current.slot.choice.currentName(ctx, this.current.slot.current);
  }

  // ---- the view ----

  /** A view was created; returns the function that detaches it. */
  attachView(view: ViewLink): () => void {
    return this.window.view.attach(view);
  }

  /** The view said `ready`: it gets one snapshot, then the approvals still waiting. */
  viewReady(): void {
    this.window.view.ready();
  }

  /** Fills the chat's composer from the editor (mentions, text); waits for the view if it is loading. */
  prefillComposer(prefill: EventData<'composer'>): void {
    this.window.view.prefillComposer(prefill);
  }

  /** Shows a panel of the view (the view-title buttons); waits for the view if it is loading. */
  showPanel(panel: 'chat' | 'sessions'): void {
    this.window.view.showPanel(panel);
  }

  // ---- the conversations ----

  /** Every conversation of the window that runs, waits or ended unseen, by session id. */
  sessionActivities(): Record<string, ConversationActivity> {
    return this.window.activities();
  }

  // ---- approvals (of any conversation: the diff editor shows background ones too) ----

  /** The full proposed change of an open approval, for the diff editor. */
  approvalChange(id: string): FileChange | undefined {
    for (const c of this.window.all()) {
      const change = c.approvals.change(id);
      if (change) return change;
    }
    return undefined;
  }

  /** Settles an open approval from outside the chat card (the diff editor, a command). */
  async decideApproval(id: string, answer: ApprovalAnswer): Promise<boolean> {
    for (const c of this.window.all()) if (await c.approvals.decide(id, answer)) return true;
    return false;
  }

  // ---- plan mode ----

  /** The mode for the next messages of the conversation in view. */
  get mode(): AgentMode {
    return this.current.state.run.mode;
  }

  // ---- settings ----

  /** Settings, keys or trust changed: the core is rebuilt when no run uses it; the view hears the outcome. */
  configChanged(): void {
    this.window.limiter.recheck();
    if (!this.current.queue.isRunning) void this.current.refreshConfig();
  }

  /** The person chose an approval mode: it applies to the conversation in view at once, mid-run too. */
  applyApprovalMode(mode: ApprovalMode): void {
    this.current.applyApprovalMode(mode);
  }

  configSummary(): Promise<ConfigSummary> {
    return this.current.config.summary();
  }

  /** Stops every run and closes every session (releasing their locks), waiting at most `graceMs` for the runs to end. */
  dispose(graceMs = 3000): Promise<void> {
    return this.window.dispose(graceMs);
  }
}
