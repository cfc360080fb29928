import * as l10n from '@vscode/l10n';
import type { Context } from '../core/context';
import { errorMessage } from '../core/errors';
import type { Project } from '../core/project';
import type { ApprovalAnswer, ApprovalMode } from '../core/projectTypes';
import type { FileChange } from '../core/tools/tool';
import { BusError } from '../protocol/busError';
import type { RequestParams, RequestResult } from '../protocol/catalogue';
import type { AgentMode, ConfigSummary, RunState } from '../protocol/sessionState';
import type { UiMessage } from '../protocol/uiMessage';
import { ApprovalFlow } from './approvalFlow';
import { ChangeReverts, type TextDiff } from './changeReverts';
import { CompactionRun } from './compactionRun';
import { ConversationState } from './conversationState';
import { listModels } from './coreQueries';
import { ConfigSync } from './configSync';
import { ProjectSlot } from './projectSlot';
import { readOnlyMessage } from './readOnlyMessage';
import { PlanControl } from './planControl';
import type { PlanInfo } from '../protocol/planState';
import type { PlanAction } from './planRuns';
import { uiErrorOf } from './runContext';
import { RunQueue } from './runQueue';
import { SendRun } from './sendRun';
import type { ModelForRun, SendParams, SendRunContext } from './sendRun';
import { SessionActions } from './sessionActions';
import type { ExportFormat } from './sessionUi';
import { SessionTitler } from './sessionTitler';
import { userUiMessage } from './uiMessages';
import { ViewSync } from './viewSync';
import type { ViewLink } from './viewSync';
import type { ChatControllerOptions } from './chatControllerOptions';


/**
 * The host side of the chat: owns the conversation (one Project at a time), runs the
 * person's messages one after another, asks for approvals through whichever view is
 * attached, and keeps the state that any newly loaded view is rebuilt from. The parts:
 * the view sync, the run queue, the session actions, the plans.
 */
export class ChatController {
  private readonly opts: ChatControllerOptions;
  private readonly state: ConversationState;
  private readonly approvals: ApprovalFlow;
  private readonly view: ViewSync;
  private readonly slot: ProjectSlot;
  private readonly queue: RunQueue<SendRun | CompactionRun>;
  private readonly runs: SendRunContext;
  private readonly sessions: SessionActions;
  private readonly reverts: ChangeReverts;
  private readonly config: ConfigSync;
  private shownMode: AgentMode = 'act';
  /** The plans of the conversation in view: open, execute, refine, discard. */
  readonly plans: PlanControl;

  constructor(opts: ChatControllerOptions) {
    this.opts = opts;
    this.view = new ViewSync({
      refreshConfig: () => this.refreshConfig(),
      snapshot: () => this.state.snapshot(this.approvals.pending()),
      onSynced: () => this.approvals.showAll(),
    });
    this.state = new ConversationState(
      {
        emit: (event, data) => {
          if (event === 'state') this.followMode((data as RunState).mode);
          if (event === 'plan') opts.onPlanChange?.((data as { plan: PlanInfo | null }).plan);
          this.view.emit(event, data);
        },
      },
      opts.state,
    );
    this.slot = new ProjectSlot(opts.log, (items) => this.state.setTodos(items));
    this.config = new ConfigSync({ ...opts, state: this.state, slot: this.slot, isRunning: () => this.queue.isRunning });
    this.approvals = new ApprovalFlow({
      state: this.state,
      syncedView: () => this.view.syncedView(),
      log: opts.log,
      onChange: () => this.activity(),
      onNeeded: opts.onApprovalNeeded,
      changes: opts.changes,
    });
    this.queue = new RunQueue({
      afterRun: () => {
        this.approvals.rejectAll('the run ended');
        this.view.flush();
      },
      idle: () => {
        this.state.setRun({ running: false, queued: 0 });
        this.activity();
        void this.refreshConfig();
      },
    });
    this.runs = {
      core: opts.core,
      log: opts.log,
      state: this.state,
      slot: this.slot,
      approvals: this.approvals,
      waiting: () => this.queue.length,
      activity: () => this.activity(),
      titler: new SessionTitler(opts.log),
      generateTitles: opts.generateTitles,
      onSessionChange: opts.onSessionChange,
    };
    this.plans = new PlanControl({
      project: () => this.slot.current,
      state: this.state,
      files: opts.planFiles,
      isQueued: (planId) => this.queue.some((q) => q instanceof SendRun && q.plan?.planId === planId),
      enqueue: (text, mode, plan) => {
        if (mode !== this.state.run.mode) this.state.setRun({ mode });
        return this.enqueue({ text }, mode, plan);
      },
    });
    this.reverts = new ChangeReverts({ project: () => this.slot.current, isRunning: () => this.queue.isRunning, state: this.state, log: opts.log });
    this.sessions = new SessionActions({
      core: opts.core,
      log: opts.log,
      state: this.state,
      slot: this.slot,
      view: this.view,
      sessionUi: opts.sessionUi,
      onSessionChange: opts.onSessionChange,
      stopAndWait: () => this.stopAndWait(),
      refreshWorkspaceProjects: (ctx) => this.refreshWorkspaceProjects(ctx),
      send: (params, model) => this.sendWith(params, model),
    });
  }

  get isRunning(): boolean {
    return this.queue.isRunning;
  }

  /** The conversation as the view shows it now. */
  messages(): UiMessage[] {
    return this.state.messages();
  }

  /** The conversation in view. */
  private get project(): Project | undefined {
    return this.slot.current;
  }

  // ---- the view ----

  /** A view was created; returns the function that detaches it. */
  attachView(view: ViewLink): () => void {
    return this.view.attach(view);
  }

  /** The view said `ready`: it gets one snapshot, then the approvals still waiting. */
  viewReady(): void {
    this.view.ready();
  }

  /** Shows a panel of the view (the view-title buttons); waits for the view if it is loading. */
  showPanel(panel: 'chat' | 'sessions'): void {
    this.view.showPanel(panel);
  }

  // ---- runs ----

  send(params: SendParams): Promise<RequestResult<'session.send'>> {
    return this.sendWith(params, undefined);
  }

  /** `checked`: the model the caller resolved for this message already (edit and resend). */
  private async sendWith(params: SendParams, checked: ModelForRun | undefined): Promise<RequestResult<'session.send'>> {
    const readOnly = this.project?.session.readOnly ? this.state.session.readOnly : undefined;
    if (readOnly !== undefined) throw new BusError('session_read_only', readOnlyMessage(readOnly));
    const mode = params.mode ?? this.state.run.mode;
    if (mode !== this.state.run.mode) this.state.setRun({ mode });
    // Checked before the message is taken, so a missing model leaves the text in the composer;
    // the run uses this model unless the settings change before its turn.
    if (!checked) {
      try {
        const { ctx } = await this.opts.core.get();
        checked = { ctx, model: ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model') };
      } catch (err) {
        const error = uiErrorOf(this.opts.core, err);
        this.state.error(error);
        void this.refreshConfig();
        throw new BusError(error.code, error.message);
      }
    }
    return this.enqueue(params, mode, undefined, checked);
  }

  /** Puts a message (or a plan action, shown as `params.text`) in the queue. */
  private enqueue(params: SendParams, mode: AgentMode, plan?: PlanAction, model?: ModelForRun): RequestResult<'session.send'> {
    const id = this.state.newMessageId('user');
    const queued = this.queue.busy;
    this.state.add(userUiMessage(id, params, Date.now(), queued ? 'queued' : 'done'));
    this.queue.add(new SendRun(this.runs, { id, params, mode, plan, model }));
    this.state.setRun({ queued: this.queue.length - (this.queue.isRunning ? 0 : 1) });
    this.queue.start();
    return { messageId: id, queued };
  }

  /** Stops the run, drops the queue; approvals still open are answered as rejected. */
  cancel(): RequestResult<'session.cancel'> {
    const cancelled = this.queue.cancel();
    this.approvals.rejectAll('the person stopped the run');
    this.state.setRun({ queued: 0 });
    this.activity();
    return { cancelled };
  }

  /** `/compact`: summarizes the conversation in view; Stop cancels it (nothing is written then). */
  async compact(): Promise<RequestResult<'session.compact'>> {
    if (this.queue.busy) {
      return { status: 'failed', message: l10n.t('Keel is working in this conversation: let it finish or stop it, then compact.') };
    }
    const current = this.project;
    if (!current) return { status: 'nothing', message: l10n.t('There is nothing to compact yet.') };
    if (current.session.readOnly) return { status: 'failed', message: readOnlyMessage(current.session.readOnlyReason ?? l10n.t('it was opened read-only')) };
    const run = new CompactionRun(this.runs);
    this.queue.add(run);
    this.queue.start();
    return run.result;
  }

  // ---- the conversations ----

  newSession(): Promise<RequestResult<'session.new'>> {
    return this.sessions.newSession();
  }

  resumeSession(id: string): Promise<RequestResult<'sessions.resume'>> {
    return this.sessions.resume(id);
  }

  listSessions(params: RequestParams<'sessions.list'>): Promise<RequestResult<'sessions.list'>> {
    return this.sessions.list(params);
  }

  renameSession(id: string, title: string): Promise<RequestResult<'sessions.rename'>> {
    return this.sessions.rename(id, title);
  }

  /** Asks first; the conversation in view is replaced by a new one before its log goes. */
  deleteSession(id: string): Promise<RequestResult<'sessions.delete'>> {
    return this.sessions.delete(id);
  }

  exportSession(id: string, format: ExportFormat): Promise<RequestResult<'sessions.export'>> {
    return this.sessions.export(id, format);
  }

  /** "Edit and resend": the branch goes back to before that prompt and the edited text is sent from there. */
  editAndResend(params: RequestParams<'session.editAndResend'>): Promise<RequestResult<'session.editAndResend'>> {
    return this.sessions.editAndResend(params);
  }

  switchBranch(params: RequestParams<'session.switchBranch'>): Promise<RequestResult<'session.switchBranch'>> {
    return this.sessions.switchBranch(params);
  }

  /** The whole of a long conversation the view got the end of. */
  loadEarlier(): Promise<RequestResult<'session.loadEarlier'>> {
    return this.sessions.loadEarlier();
  }

  /** Makes a workspace folder the current project: of this conversation (recorded in its log), or of the next. */
  async selectWorkspaceProject(name: string): Promise<RequestResult<'workspaceProject.select'>> {
    if (this.queue.isRunning) {
      throw new BusError('busy', l10n.t('Keel is working in this conversation: stop it or let it finish, then switch the project.'));
    }
    const { ctx } = await this.opts.core.get();
    try {
      this.slot.choice.select(ctx, this.project, name);
    } catch (err) {
      throw new BusError('invalid_params', errorMessage(err));
    }
    return this.refreshWorkspaceProjects(ctx);
  }

  async listModels(): Promise<RequestResult<'models.list'>> {
    const { ctx } = await this.opts.core.get();
    return listModels(ctx);
  }

  // ---- approvals ----

  /** The full proposed change of an open approval, for the diff editor. */
  approvalChange(id: string): FileChange | undefined {
    return this.approvals.change(id);
  }

  /** Settles an open approval from outside the chat card (the diff editor, a command). */
  decideApproval(id: string, answer: ApprovalAnswer): Promise<boolean> {
    return this.approvals.decide(id, answer);
  }

  // ---- plan mode ----

  /** The mode for the next messages (the composer's Plan/Act switch, "Toggle Plan Mode"). */
  setMode(mode: AgentMode): RequestResult<'mode.set'> {
    this.state.setRun({ mode });
    void this.refreshConfig();
    return { mode };
  }

  get mode(): AgentMode {
    return this.state.run.mode;
  }

  private followMode(mode: AgentMode): void {
    if (mode === this.shownMode) return;
    this.shownMode = mode;
    this.opts.onModeChange?.(mode);
  }

  // ---- the change journal ----

  undoChange(params: RequestParams<'change.undo'>): Promise<RequestResult<'change.undo'>> {
    return this.reverts.undo(params);
  }

  restoreFiles(params: RequestParams<'changes.restore'>): Promise<RequestResult<'changes.restore'>> {
    return this.reverts.restore(params);
  }

  undoCommand(params: RequestParams<'command.undo'>): Promise<RequestResult<'command.undo'>> {
    return this.reverts.undoCommand(params);
  }

  commandDiff(changeId: string): Promise<TextDiff | undefined> {
    return this.reverts.commandDiff(changeId);
  }

  // ---- settings ----

  /** Settings, keys or trust changed: the core is rebuilt when no run uses it; the view hears the outcome. */
  configChanged(): void {
    if (!this.queue.isRunning) void this.refreshConfig();
  }

  /** The person chose an approval mode: it applies to this conversation at once, mid-run too. */
  applyApprovalMode(mode: ApprovalMode): void {
    const project = this.project;
    if (project && project.approvalMode !== mode && !project.session.readOnly) project.setApprovalMode(mode);
    this.state.setRun({ approvalMode: mode });
  }

  configSummary(): Promise<ConfigSummary> {
    return this.config.summary();
  }

  /** Stops the run and closes the session (releasing its lock), waiting at most `graceMs` for the run to end. */
  async dispose(graceMs = 3000): Promise<void> {
    this.cancel();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([this.queue.whenIdle(), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.opts.log('warn', `the run did not stop within ${graceMs} ms; closing its session anyway`);
    this.slot.close();
  }

  // ---- helpers ----

  private async stopAndWait(): Promise<void> {
    this.cancel();
    await this.queue.whenIdle();
  }

  private refreshConfig(): Promise<void> {
    return this.config.refresh();
  }

  private refreshWorkspaceProjects(ctx: Context): Promise<RequestResult<'workspaceProject.select'>> {
    return this.config.projects(ctx);
  }

  private activity(): void {
    this.opts.onActivity?.({ running: this.queue.isRunning, approvals: this.approvals.size });
  }
}
