import type { ApprovalMode } from '../core/projectTypes';
import type { ApprovalAnswer } from '../core/tools/tool';
import type { FileChange } from '../core/tools/tool';
import type { RequestParams, RequestResult } from '../protocol/catalogue';
import type { ConversationActivity } from '../protocol/conversationActivity';
import type { AgentMode, ConfigSummary } from '../protocol/sessionState';
import type { UiMessage } from '../protocol/uiMessage';
import { BranchActions } from './branchActions';
import type { TextDiff } from './changeReverts';
import type { ChatControllerOptions } from './chatControllerOptions';
import type { Context } from '../core/context';
import type { CoreAccess } from './coreAccess';
import type { Conversation } from './conversation';
import { ConversationWindow } from './conversationWindow';
import { listModels } from './coreQueries';
import type { PlanControl } from './planControl';
import type { SendParams } from './sendRun';
import { SessionActions } from './sessionActions';
import type { NewChatOptions } from './sessionActions';
import type { ExportFormat } from './sessionUi';
import type { ViewLink } from './viewSync';

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
  private readonly sessions: SessionActions;
  private readonly branches: BranchActions;

  constructor(opts: ChatControllerOptions) {
    this.window = new ConversationWindow(opts);
    this.sessions = new SessionActions({ core: opts.core, log: opts.log, window: this.window, sessionUi: opts.sessionUi, worktrees: opts.worktrees });
    this.branches = new BranchActions(
      () => this.window.inView,
      () => this.window.view.sendSnapshot(),
    );
  }

  /** A run goes on in any conversation of the window (the core is not rebuilt under it). */
  get isRunning(): boolean {
    return this.window.isRunning;
  }

  /** Approvals waiting for the person across the window's conversations. */
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

  private get current(): Conversation {
    return this.window.inView;
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

  /** Shows a panel of the view (the view-title buttons); waits for the view if it is loading. */
  showPanel(panel: 'chat' | 'sessions'): void {
    this.window.view.showPanel(panel);
  }

  // ---- runs (of the conversation in view) ----

  send(params: SendParams): Promise<RequestResult<'session.send'>> {
    return this.current.send(params);
  }

  /** Stops the run of the conversation in view, drops its queue; its open approvals are answered as rejected. */
  cancel(): RequestResult<'session.cancel'> {
    return { cancelled: this.current.cancel() };
  }

  /** `/compact`: summarizes the conversation in view; Stop cancels it (nothing is written then). */
  async compact(): Promise<RequestResult<'session.compact'>> {
    return this.current.compact();
  }

  // ---- the conversations ----

  /** A new, empty conversation in view; the one before keeps running in the background if it runs. */
  newSession(options?: NewChatOptions): Promise<RequestResult<'session.new'>> {
    return this.sessions.newSession(options);
  }

  /** Opens a conversation in view: the open one with that id, or its log. */
  resumeSession(id: string): Promise<RequestResult<'sessions.resume'>> {
    return this.sessions.resume(id);
  }

  listSessions(params: RequestParams<'sessions.list'>): Promise<RequestResult<'sessions.list'>> {
    return this.sessions.list(params);
  }

  /** Every conversation of the window that runs, waits or ended unseen, by session id. */
  sessionActivities(): Record<string, ConversationActivity> {
    return this.window.activities();
  }

  renameSession(id: string, title: string): Promise<RequestResult<'sessions.rename'>> {
    return this.sessions.rename(id, title);
  }

  /** Asks first; a running conversation is stopped, the one in view replaced by a new one, before its log goes. */
  deleteSession(id: string): Promise<RequestResult<'sessions.delete'>> {
    return this.sessions.delete(id);
  }

  exportSession(id: string, format: ExportFormat): Promise<RequestResult<'sessions.export'>> {
    return this.sessions.export(id, format);
  }

  /** "Edit and resend": the branch goes back to before that prompt and the edited text is sent from there. */
  editAndResend(params: RequestParams<'session.editAndResend'>): Promise<RequestResult<'session.editAndResend'>> {
    return this.branches.editAndResend(params);
  }

  switchBranch(params: RequestParams<'session.switchBranch'>): Promise<RequestResult<'session.switchBranch'>> {
    return this.branches.switchBranch(params);
  }

  /** The whole of a long conversation the view got the end of. */
  loadEarlier(): Promise<RequestResult<'session.loadEarlier'>> {
    return this.branches.loadEarlier();
  }

  /** Makes a workspace folder the current project: of the conversation in view (recorded in its log), or of its first run. */
  selectWorkspaceProject(name: string): Promise<RequestResult<'workspaceProject.select'>> {
    return this.current.selectWorkspaceProject(name);
  }

  async listModels(): Promise<RequestResult<'models.list'>> {
    const { ctx } = await this.current.core.get();
    return listModels(ctx);
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

  /** The mode for the next messages (the composer's Plan/Act switch, "Toggle Plan Mode"). */
  setMode(mode: AgentMode): RequestResult<'mode.set'> {
    this.current.setMode(mode);
    return { mode };
  }

  get mode(): AgentMode {
    return this.current.state.run.mode;
  }

  // ---- the change journal (of the conversation in view) ----

  undoChange(params: RequestParams<'change.undo'>): Promise<RequestResult<'change.undo'>> {
    return this.current.reverts.undo(params);
  }

  restoreFiles(params: RequestParams<'changes.restore'>): Promise<RequestResult<'changes.restore'>> {
    return this.current.reverts.restore(params);
  }

  undoCommand(params: RequestParams<'command.undo'>): Promise<RequestResult<'command.undo'>> {
    return this.current.reverts.undoCommand(params);
  }

  commandDiff(changeId: string): Promise<TextDiff | undefined> {
    return this.current.reverts.commandDiff(changeId);
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
