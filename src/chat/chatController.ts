import type { Context } from '../core/context';
import { errorMessage } from '../core/errors';
import type { ResolvedModel } from '../core/model/modelRegistry';
import { Project } from '../core/project';
import type { ChangeJournal, RevertOutcome } from '../core/journal/changeJournal';
import type { ApprovalAnswer, ApprovalMode, ProjectEvent, RunOptions, RunResult } from '../core/projectTypes';
import type { FileChange } from '../core/tools/tool';
import { BusError } from '../protocol/busError';
import type { RequestParams, RequestResult } from '../protocol/catalogue';
import type { DeltaCoalescer } from '../protocol/deltaCoalescer';
import type { LogFn } from '../protocol/log';
import type { AgentMode, ConfigSummary, RunState, SessionInfo, Snapshot, UiError } from '../protocol/sessionState';
import type { UiMessage } from '../protocol/uiMessage';
import { ApprovalFlow } from './approvalFlow';
import type { ChangeApprovalHooks } from './approvalFlow';
import type { BuiltCore } from './coreLoader';
import { ConversationState } from './conversationState';
import type { ConversationStateOptions, EventSink } from './conversationState';
import { runFailure, thrownError } from './runErrors';
import { userContent, userUiMessage } from './uiMessages';
import { todosFromEntries } from './uiSessions';
import { configSummaryOf, listModels, sessionsPage } from './coreQueries';
import { ProjectChoice, projectsFor } from './projectChoice';
import { PlanControl } from './planControl';
import type { PlanInfo } from '../protocol/planState';
import { latestPlanInfo, runPlanAction } from './planRuns';
import type { PlanAction, PlanFiles } from './planRuns';
import { exportSource } from '../core/session/sessionExport';
import type { ExportFormat, SessionUi } from './sessionUi';
import { SessionTitler } from './sessionTitler';
import { RESUME_WINDOW, conversationView } from './sessionView';

/** The attached chat view, as the controller talks to it. */
export interface ViewLink {
  readonly outbox: Pick<DeltaCoalescer, 'emit' | 'request' | 'flush'>;
  isReady(): boolean;
}

export interface CoreAccess {
  get(): Promise<BuiltCore>;
  peek(): BuiltCore | undefined;
}

export interface ChatControllerOptions {
  core: CoreAccess;
  log: LogFn;
  /** Workspace Trust, for the summary when the core cannot be built. */
  trusted(): boolean;
  /** Running or waiting for the person changed (the status bar follows it). */
  onActivity?(activity: { running: boolean; approvals: number }): void;
  /** An approval is waiting: bring the view into sight without taking focus. */
  onApprovalNeeded?(): void;
  /** The conversation in view changed (saved for the first time, resumed, or a new empty one: null). */
  onSessionChange?(id: string | null): void;
  /** The diff editor side of file-change approvals. */
  changes?: ChangeApprovalHooks;
  state?: ConversationStateOptions;
  /** Plan mode turned on or off (the status bar follows it). */
  onModeChange?(mode: AgentMode): void;
  /** The conversation's newest plan changed (the command palette's Execute Plan follows it). */
  onPlanChange?(plan: PlanInfo | null): void;
  /** The editor side of plan files; without it plans cannot be opened. */
  planFiles?: PlanFiles;
  /** Delete confirmation and export targets (absent: those actions are refused). */
  sessionUi?: SessionUi;
  /** Whether to name new conversations with the small model after their first reply. */
  generateTitles?(): boolean;
}

type SendParams = RequestParams<'session.send'>;

interface QueuedSend {
  id: string;
  params: SendParams;
  mode: AgentMode;
  /** Execute or refine a plan instead of sending `params.text` as typed. */
  plan?: PlanAction;
}

/**
 * The host side of the chat: owns the conversation (one Project at a time), runs the
 * person's messages one after another, asks for approvals through whichever view is
 * attached, and keeps the state that any newly loaded view is rebuilt from.
 */
export class ChatController {
  private readonly opts: ChatControllerOptions;
  private readonly state: ConversationState;
  private readonly approvals: ApprovalFlow;
  private view: ViewLink | undefined;
  /** A snapshot went to the attached view since its last `ready`: events may follow. */
  private synced = false;
  private readyGeneration = 0;
  private pendingPanel: 'chat' | 'sessions' | undefined;

  private project: Project | undefined;
  private readonly projectChoice = new ProjectChoice();
  private unsubscribeTodos: (() => void) | undefined;
  private readonly queue: QueuedSend[] = [];
  private running = false;
  private abort: AbortController | undefined;
  private idleWaiters: (() => void)[] = [];
  private shownMode: AgentMode = 'act';
  /** The plans of the conversation in view: open, execute, refine, discard. */
  readonly plans: PlanControl;
  /** Live user messages carry view ids until a resume: the session id each one was saved under. */
  private readonly savedAs = new Map<string, string>();
  private readonly titler: SessionTitler;
  /** Messages of the conversation in view that the view was not sent (a long one opens with its end). */
  private hiddenEarlier = 0;

  constructor(opts: ChatControllerOptions) {
    this.opts = opts;
    const sink: EventSink = {
      emit: (event, data) => {
        if (event === 'state') this.followMode((data as RunState).mode);
        if (event === 'plan') this.opts.onPlanChange?.((data as { plan: PlanInfo | null }).plan);
        if (this.view && this.synced) this.view.outbox.emit(event, data);
      },
    };
    this.state = new ConversationState(sink, opts.state);
    this.plans = new PlanControl({
      project: () => this.project,
      state: this.state,
      files: opts.planFiles,
      isQueued: (planId) => this.queue.some((q) => q.plan?.planId === planId),
      enqueue: (text, mode, plan) => this.queuePlanRun(text, mode, plan),
    });
    this.titler = new SessionTitler(opts.log);
    this.approvals = new ApprovalFlow({
      state: this.state,
      syncedView: () => (this.synced ? this.view : undefined),
      log: opts.log,
      onChange: () => this.activity(),
      onNeeded: opts.onApprovalNeeded,
      changes: opts.changes,
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The conversation as the view shows it now. */
  messages(): UiMessage[] {
    return this.state.messages();
  }

  // ---- the view ----

  /** A view was created; returns the function that detaches it. */
  attachView(view: ViewLink): () => void {
    this.view = view;
    this.synced = false;
    return () => {
      if (this.view !== view) return;
      this.view = undefined;
      this.synced = false;
    };
  }

  /** The view said `ready`: it gets one snapshot, then the approvals still waiting. */
  viewReady(): void {
    this.synced = false;
    const generation = ++this.readyGeneration;
    void this.refreshConfig().then(() => {
      const view = this.view;
      if (generation !== this.readyGeneration || !view || !view.isReady()) return;
      view.outbox.emit('snapshot', this.snapshotNow());
      this.synced = true;
      this.approvals.showAll();
      if (this.pendingPanel) {
        view.outbox.emit('view.show', { panel: this.pendingPanel });
        this.pendingPanel = undefined;
      }
    });
  }

  /** Shows a panel of the view (the view-title buttons); waits for the view if it is loading. */
  showPanel(panel: 'chat' | 'sessions'): void {
    if (this.view && this.synced) this.view.outbox.emit('view.show', { panel });
    else this.pendingPanel = panel;
  }

  // ---- requests from the view ----

  async send(params: SendParams): Promise<RequestResult<'session.send'>> {
    const readOnly = this.project?.session.readOnly ? this.state.session.readOnly : undefined;
    if (readOnly !== undefined) throw new BusError('session_read_only', readOnlyMessage(readOnly));
    const mode = params.mode ?? this.state.run.mode;
    if (mode !== this.state.run.mode) this.state.setRun({ mode });
    // Checked before the message is taken, so a missing model leaves the text in the composer.
    try {
      const { ctx } = await this.opts.core.get();
      ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model');
    } catch (err) {
      const error = this.uiErrorOf(err);
      this.state.error(error);
      void this.refreshConfig();
      throw new BusError(error.code, error.message);
    }
    const id = this.state.newMessageId('user');
    const queued = this.running || this.queue.length > 0;
    this.state.add(userUiMessage(id, params, Date.now(), queued ? 'queued' : 'done'));
    this.queue.push({ id, params, mode });
    this.state.setRun({ queued: this.queue.length - (this.running ? 0 : 1) });
    void this.pump();
    return { messageId: id, queued };
  }

  /** Stops the run, drops the queue; approvals still open are answered as rejected. */
  cancel(): RequestResult<'session.cancel'> {
    const dropped = this.queue.splice(0);
    for (const item of dropped) this.state.setStatus(item.id, 'cancelled');
    const wasRunning = this.running;
    this.abort?.abort();
    this.approvals.rejectAll('the person stopped the run');
    this.state.setRun({ queued: 0 });
    this.activity();
    return { cancelled: wasRunning || dropped.length > 0 };
  }

  async newSession(): Promise<RequestResult<'session.new'>> {
    await this.stopAndWait();
    this.projectChoice.carryOver(this.project);
    this.closeProject();
    this.state.replace([], { id: null, title: null }, null, []);
    this.state.setPlan(undefined);
    this.hiddenEarlier = 0;
    this.opts.onSessionChange?.(null);
    this.sendSnapshot();
    return { session: { id: null, title: null } };
  }

  async resumeSession(id: string): Promise<RequestResult<'sessions.resume'>> {
    await this.stopAndWait();
    if (this.project?.session.id === id) {
      this.sendSnapshot();
      return { session: { ...this.state.session } };
    }
    const { ctx } = await this.opts.core.get();
    const session = ctx.sessions.open(id);
    for (const warning of session.warnings) this.opts.log('warn', `session ${id}: ${warning}`);
    this.closeProject();
    const project = new Project(ctx, session);
    const entries = session.entries();
    project.todos.set(todosFromEntries(entries));
    this.setProject(project);
    const view = conversationView(session, RESUME_WINDOW);
    const info: SessionInfo = view.info;
    if (session.recovered) this.opts.log('warn', `session ${id}: ${session.recovered}`);
    this.savedAs.clear();
    this.hiddenEarlier = view.earlier;
    this.state.replace(view.messages, info, view.usage, project.todos.get());
    this.state.attachChanges(project.journal?.entries() ?? []);
    this.state.attachRules(session.rulesFired());
    this.state.setRun({ approvalMode: project.approvalMode });
    this.state.setPlan(latestPlanInfo(project));
    this.opts.onSessionChange?.(session.id);
    await this.refreshProjects(ctx);
    this.sendSnapshot();
    return { session: info };
  }

  /** `/compact`: summarizes the conversation in view; Stop cancels it (nothing is written then). */
  async compact(): Promise<RequestResult<'session.compact'>> {
    if (this.running || this.queue.length > 0) {
      return { status: 'failed', message: 'Keel is working in this conversation: let it finish or stop it, then compact.' };
    }
    const current = this.project;
    if (!current) return { status: 'nothing', message: 'There is nothing to compact yet.' };
    if (current.session.readOnly) return { status: 'failed', message: readOnlyMessage(current.session.readOnlyReason ?? 'it was opened read-only') };
    const controller = new AbortController();
    this.abort = controller;
    this.running = true;
    this.state.setRun({ running: true });
    this.activity();
    try {
      const project = this.projectFor((await this.opts.core.get()).ctx);
      let failure = 'The conversation was not compacted; nothing was changed.';
      const outcome = await project.compact({
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'compaction' && e.phase === 'failed') failure = e.error;
          this.state.apply(e, () => controller.signal.aborted);
          if (e.type === 'compaction') this.compacted(e);
        },
      });
      if (outcome === 'nothing') return { status: 'nothing', message: 'There is nothing to compact yet.' };
      if (outcome === 'failed') return { status: 'failed', message: failure };
      return { status: 'compacted', message: `${outcome.compactedMessages} messages were summarized.` };
    } catch (err) {
      const error = this.uiErrorOf(err);
      this.state.error(error);
      return { status: 'failed', message: error.message };
    } finally {
      if (this.abort === controller) this.abort = undefined;
      this.running = false;
      this.state.setRun({ running: false });
      this.activity();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      this.view?.outbox.flush();
      if (this.queue.length > 0) void this.pump();
    }
  }

  /** The context meter shows the smaller history at once, not after the next request. */
  private compacted(event: Extract<ProjectEvent, { type: 'compaction' }>): void {
    const usage = this.state.usage;
    if (event.phase === 'done' && usage) this.state.setUsage({ ...usage, contextTokens: event.tokensAfter });
  }

  async listSessions(params: RequestParams<'sessions.list'>): Promise<RequestResult<'sessions.list'>> {
    const { ctx } = await this.opts.core.get();
    return sessionsPage(ctx, params, this.project?.session.id);
  }

  /** Makes a workspace folder the current project: of this conversation (recorded in its log), or of the next. */
  async selectProject(name: string): Promise<RequestResult<'project.select'>> {
    if (this.running) {
      throw new BusError('busy', 'Keel is working in this conversation: stop it or let it finish, then switch the project.');
    }
    const { ctx } = await this.opts.core.get();
    try {
      this.projectChoice.select(ctx, this.project, name);
    } catch (err) {
      throw new BusError('invalid_params', errorMessage(err));
    }
    return this.refreshProjects(ctx);
  }

  // ---- the sessions list's actions, and branches ----

  async renameSession(id: string, title: string): Promise<RequestResult<'sessions.rename'>> {
    const current = this.project?.session;
    if (current?.id === id && !current.readOnly) {
      current.appendConfig('title', title.trim());
      const shown = current.summary().title;
      this.state.setSession({ id, title: shown || null });
      return { title: shown };
    }
    const { ctx } = await this.opts.core.get();
    return { title: ctx.sessions.rename(id, title).title };
  }

  /** Asks first; the conversation in view is replaced by a new one before its log goes. */
  async deleteSession(id: string): Promise<RequestResult<'sessions.delete'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.opts.core.get();
    const stored = ctx.sessions.open(id, { readOnly: true });
    const title = stored.summary().title;
    stored.close();
    if (!(await ui.confirmDelete(title))) return { deleted: false };
    if (this.project?.session.id === id) await this.newSession();
    ctx.sessions.delete(id);
    return { deleted: true };
  }

  async exportSession(id: string, format: ExportFormat): Promise<RequestResult<'sessions.export'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.opts.core.get();
    // Read from disk without the lock: the conversation in view may be exported too.
    const stored = ctx.sessions.open(id, { readOnly: true });
    let source: ReturnType<typeof exportSource>;
    try {
      source = exportSource(stored);
    } finally {
      stored.close();
    }
    return { exported: await ui.exportSession(source, format) };
  }

  /** "Edit and resend": the branch goes back to before that prompt and the edited text is sent from there. */
  async editAndResend(params: RequestParams<'session.editResend'>): Promise<RequestResult<'session.editResend'>> {
    await this.stopAndWait();
    const session = this.writableSession();
    // Without a usable model the branch would be cut and nothing sent: refuse first, fork nothing.
    try {
      (await this.opts.core.get()).ctx.models.resolve(this.state.run.mode === 'plan' ? 'planModel' : 'model');
    } catch (err) {
      const error = this.uiErrorOf(err);
      throw new BusError(error.code, error.message);
    }
    const messageId = this.savedAs.get(params.messageId) ?? params.messageId;
    session.fork(session.parentOf(messageId));
    this.showSession();
    return this.send({ text: params.text });
  }

  async switchBranch(params: RequestParams<'session.switchBranch'>): Promise<RequestResult<'session.switchBranch'>> {
    await this.stopAndWait();
    const session = this.writableSession();
    const messageId = this.savedAs.get(params.messageId) ?? params.messageId;
    const point = session.branchPoints().get(messageId);
    const target = point?.siblings[params.index - 1];
    if (!point || !target) throw new BusError('invalid_params', `That message has no version ${params.index}.`);
    if (target !== messageId) session.switchBranch(target);
    this.showSession();
    return { session: { ...this.state.session } };
  }

  async listModels(): Promise<RequestResult<'models.list'>> {
    const { ctx } = await this.opts.core.get();
    return listModels(ctx);
  }

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

  /** Puts a plan action (execute, refine) in the queue like a typed message, shown as `text`. */
  private queuePlanRun(text: string, mode: AgentMode, plan: PlanAction): RequestResult<'plan.execute'> {
    if (mode !== this.state.run.mode) this.state.setRun({ mode });
    const id = this.state.newMessageId('user');
    const queued = this.running || this.queue.length > 0;
    this.state.add(userUiMessage(id, { text }, Date.now(), queued ? 'queued' : 'done'));
    this.queue.push({ id, params: { text }, mode, plan });
    this.state.setRun({ queued: this.queue.length - (this.running ? 0 : 1) });
    void this.pump();
    return { messageId: id, queued };
  }

  private followMode(mode: AgentMode): void {
    if (mode === this.shownMode) return;
    this.shownMode = mode;
    this.opts.onModeChange?.(mode);
  }

  private sessionUi(): SessionUi {
    if (!this.opts.sessionUi) throw new BusError('internal', 'This window cannot export or delete conversations.');
    return this.opts.sessionUi;
  }

  private writableSession() {
    const session = this.project?.session;
    if (!session) throw new BusError('invalid_params', 'There is no saved conversation in view to branch.');
    if (session.readOnly) throw new BusError('invalid_params', `This conversation is read-only here (${session.readOnlyReason ?? 'another window'}).`);
    return session;
  }

  /** The whole of a long conversation the view got the end of. */
  async loadEarlier(): Promise<RequestResult<'session.loadEarlier'>> {
    await this.stopAndWait();
    if (!this.project || this.hiddenEarlier === 0) return { shown: 0 };
    const shown = this.hiddenEarlier;
    this.showSession(Number.POSITIVE_INFINITY);
    return { shown };
  }

  /** The view shows the session's active branch again, from the log (after a fork or a switch). */
  private showSession(window = RESUME_WINDOW): void {
    const project = this.project;
    if (!project) return;
    const view = conversationView(project.session, window);
    this.hiddenEarlier = view.earlier;
    this.savedAs.clear();
    this.state.replace(view.messages, view.info, view.usage, project.todos.get());
    this.state.attachChanges(project.journal?.entries() ?? []);
    this.state.attachRules(project.session.rulesFired());
    this.state.setRun({ approvalMode: project.approvalMode });
    this.sendSnapshot();
  }

  // ---- the change journal ----

  async undoChange(params: RequestParams<'change.undo'>): Promise<RequestResult<'change.undo'>> {
    const journal = this.journalForRevert();
    if ('status' in journal) return journal;
    return this.reverted(await journal.undo(params.changeId, { force: params.force === true }));
  }

  async restoreFiles(params: RequestParams<'changes.restore'>): Promise<RequestResult<'changes.restore'>> {
    const journal = this.journalForRevert();
    if ('status' in journal) return journal;
    const calls = this.state.toolCallIdsFrom(params.messageId);
    if (!calls) return { status: 'nothing', message: 'That message is not in this conversation.' };
    return this.reverted(await journal.restoreFrom(calls, { force: params.force === true }));
  }

  private journalForRevert(): ChangeJournal | { status: 'failed'; message: string } {
    const journal = this.project?.journal;
    if (!journal) return { status: 'failed', message: 'This conversation has no record of file changes it can put back (it is open read-only or not started).' };
    if (this.running) return { status: 'failed', message: 'Keel is working in this conversation: stop it or let it finish, then put files back.' };
    return journal;
  }

  private reverted(outcome: RevertOutcome): RequestResult<'change.undo'> {
    if (outcome.status === 'reverted') this.state.markReverted(new Set(outcome.reverted.map((e) => e.id)));
    this.opts.log(outcome.status === 'reverted' || outcome.status === 'nothing' ? 'info' : 'warn', `change journal: ${outcome.message}`);
    return { status: outcome.status, message: outcome.message };
  }

  // ---- settings ----

  /** Settings, keys or trust changed: the core is rebuilt when no run uses it; the view hears the outcome. */
  configChanged(): void {
    if (!this.running) void this.refreshConfig();
  }

  /** The person chose an approval mode: it applies to this conversation at once, mid-run too. */
  applyApprovalMode(mode: ApprovalMode): void {
    const project = this.project;
    if (project && project.approvalMode !== mode && !project.session.readOnly) project.setApprovalMode(mode);
    this.state.setRun({ approvalMode: mode });
  }

  async configSummary(): Promise<ConfigSummary> {
    try {
      return configSummaryOf(await this.opts.core.get());
    } catch (err) {
      const problem = this.uiErrorOf(err).message;
      this.opts.log('warn', `core: cannot start: ${problem}`);
      return { modelConfigured: false, workspaceTrusted: this.opts.trusted(), problem };
    }
  }

  /** Stops the run and closes the session (releasing its lock), waiting at most `graceMs` for the run to end. */
  async dispose(graceMs = 3000): Promise<void> {
    this.cancel();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([this.whenIdle(), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.opts.log('warn', `the run did not stop within ${graceMs} ms; closing its session anyway`);
    this.closeProject();
  }

  // ---- runs ----

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) await this.runOne(item);
    } finally {
      this.running = false;
      this.state.setRun({ running: false, queued: 0 });
      this.activity();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      void this.refreshConfig();
    }
    if (this.queue.length > 0) void this.pump();
  }

  private async runOne(item: QueuedSend): Promise<void> {
    const controller = new AbortController();
    this.abort = controller;
    const { signal } = controller;
    if (this.state.message(item.id)?.status === 'queued') this.state.dequeue(item.id);
    this.state.setRun({ running: true, queued: this.queue.length, mode: item.mode });
    this.activity();
    let recorded = false;
    let secrets: string[] = [];
    try {
      const built = await this.opts.core.get();
      secrets = built.secrets;
      const project = this.projectFor(built.ctx);
      const model = built.ctx.models.resolve(item.mode === 'plan' ? 'planModel' : 'model');
      this.state.beginRun(model.id);
      this.state.setRun({ model: model.id, approvalMode: project.approvalMode });
      const run = item.plan
        ? (_input: unknown, opts: RunOptions) => runPlanAction(project, item.plan!, opts)
        : item.mode === 'plan'
          ? project.plan.bind(project)
          : project.send.bind(project);
      const result = await run(userContent(item.params), {
        signal,
        ...(item.params.mentions?.length ? { mentions: item.params.mentions } : {}),
        onEvent: (event) => {
          if (event.type === 'message' && event.message.role === 'user') {
            recorded = true;
            // The plan was settled (executed, refined) as its run began: the view's plan actions go.
            if (item.plan) this.state.setPlan(latestPlanInfo(project));
            this.savedAs.set(item.id, event.id);
            this.markBranch(item.id, event.id, project);
          }
          this.onProjectEvent(event, project, model, signal);
        },
        onToolApprove: (request) => this.approvals.ask(request, signal),
      });
      this.finish(result, secrets);
      if (item.plan || item.mode === 'plan') this.state.setPlan(latestPlanInfo(project));
      if (this.opts.generateTitles?.() === true) {
        this.titler.maybeTitle(built.ctx, project.session, (title) => {
          if (this.project?.session === project.session) this.state.setSession({ id: project.session.id, title });
        });
      }
    } catch (err) {
      const error = this.uiErrorOf(err, secrets);
      this.opts.log('error', `run failed: ${error.message}`);
      this.state.error(error);
      this.state.finishRun({ cancelled: false, error });
      // The session never got the message: say so on it, so nothing is silently lost.
      if (!recorded) this.state.setStatus(item.id, 'error', { code: error.code, message: error.message });
    } finally {
      this.approvals.rejectAll('the run ended');
      if (this.abort === controller) this.abort = undefined;
      this.view?.outbox.flush();
    }
  }

  private finish(result: RunResult, secrets: readonly string[]): void {
    if (result.status === 'error') {
      const error = runFailure(result.error ?? { message: 'the model request failed' }, secrets);
      this.opts.log('warn', `run ended with an error: ${error.message}`);
      this.state.error(error);
      this.state.finishRun({ cancelled: false, error });
      return;
    }
    if (result.status === 'max_turns') {
      this.state.error({
        code: 'internal',
        message: `The agent stopped after ${result.turns} turns (keel.maxTurns). Send "continue" to let it go on.`,
        retryable: true,
      });
    }
    this.state.finishRun({ cancelled: result.status === 'cancelled' });
  }

  private onProjectEvent(event: ProjectEvent, project: Project, model: ResolvedModel, signal: AbortSignal): void {
    if (event.type === 'usage') {
      const totals = project.session.usageTotals();
      const usage = {
        inputTokens: totals.inputTokens,
        outputTokens: totals.outputTokens,
        contextTokens: event.inputTokens + event.outputTokens,
        ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
      };
      this.state.setUsage(usage);
      return;
    }
    this.state.apply(event, () => signal.aborted);
    if (event.type === 'compaction') this.compacted(event);
    if (event.type === 'message' && event.message.role === 'user') {
      this.state.setSession({ id: project.session.id, title: project.session.summary().title || null });
      this.opts.onSessionChange?.(project.session.id);
    }
  }

  // ---- helpers ----

  private projectFor(ctx: Context): Project {
    const current = this.project;
    if (current && current.ctx === ctx) return current;
    if (current && current.ctx.sessions.key === ctx.sessions.key) {
      // The settings changed between runs: same conversation, new configuration.
      // Background commands started in this conversation stay reachable under the new Project.
      const next = new Project(ctx, current.session, { jobs: current.jobs });
      next.todos.set(current.todos.get());
      this.setProject(next);
      return next;
    }
    if (current) {
      this.opts.log('info', 'The workspace changed; the next message starts a new conversation.');
      this.closeProject();
    }
    const project = new Project(ctx, ctx.sessions.create());
    this.projectChoice.applyTo(project);
    this.setProject(project);
    return project;
  }

  /** A prompt sent after an edit shows which version it is. */
  private markBranch(viewId: string, savedId: string, project: Project): void {
    const point = project.session.branchPoints().get(savedId);
    const message = this.state.message(viewId);
    if (point && message) this.state.add({ ...message, branch: { index: point.index, count: point.count } });
  }

  private setProject(project: Project): void {
    this.unsubscribeTodos?.();
    this.project = project;
    this.unsubscribeTodos = project.todos.onChange((items) => this.state.setTodos(items.map((i) => ({ ...i }))));
  }

  private closeProject(): void {
    this.unsubscribeTodos?.();
    this.unsubscribeTodos = undefined;
    const project = this.project;
    this.project = undefined;
    if (!project) return;
    // Its background commands end with the conversation (the log stays as it is).
    project.dispose().catch((err: unknown) => this.opts.log('warn', `stopping background commands failed: ${errorMessage(err)}`));
    try {
      project.session.close();
    } catch (err) {
      this.opts.log('warn', `closing session ${project.session.id} failed: ${errorMessage(err)}`);
    }
  }

  private async stopAndWait(): Promise<void> {
    this.cancel();
    await this.whenIdle();
  }

  private whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private sendSnapshot(): void {
    const view = this.view;
    if (!view || !this.synced) return;
    view.outbox.emit('snapshot', this.snapshotNow());
  }

  private snapshotNow(): Snapshot {
    const snapshot = this.state.snapshot(this.approvals.pending());
    return this.hiddenEarlier > 0 ? { ...snapshot, earlierMessages: this.hiddenEarlier } : snapshot;
  }

  /** Never rejects: a failure here is logged and the view keeps its last summary. */
  private async refreshConfig(): Promise<void> {
    try {
      await this.updateConfig();
    } catch (err) {
      this.opts.log('error', `refreshing the configuration summary failed: ${errorMessage(err)}`);
    }
  }

  private async updateConfig(): Promise<void> {
    const summary = await this.configSummary();
    this.state.setConfig(summary);
    const built = this.opts.core.peek();
    if (!built) {
      this.state.setRun({ model: null });
      return;
    }
    await this.refreshProjects(built.ctx);
    if (!this.running) {
      this.state.setRun({
        model: built.ctx.models.configuredId(this.state.run.mode === 'plan' ? 'planModel' : 'model') ?? null,
        approvalMode: this.project?.approvalMode ?? built.ctx.config.approvalMode,
      });
    }
  }

  /** Reads the folders' types and branches again and tells the view if anything changed. */
  private async refreshProjects(ctx: Context): Promise<RequestResult<'project.select'>> {
    const projects = await projectsFor(ctx, this.projectChoice.currentName(ctx, this.project));
    this.state.setProjects(projects);
    return projects;
  }

  private activity(): void {
    this.opts.onActivity?.({ running: this.running, approvals: this.approvals.size });
  }

  private uiErrorOf(err: unknown, secrets: readonly string[] = this.opts.core.peek()?.secrets ?? []): UiError {
    return thrownError(err, secrets);
  }
}

/** What the person reads when a conversation is open for writing in another window. */
export function readOnlyMessage(reason: string): string {
  return `This conversation is read-only in this window: ${reason}. Two windows writing one conversation would corrupt it; continue it in that window, or start a new chat here.`;
}
