import { autoCompaction, runCompaction } from './compaction/autoCompaction';
import type { CompactionOutcome } from './compaction/compactor';
import { textTokens } from './compaction/tokenEstimate';
import type { ApprovalMode } from './config/configSchema';
import type { Context } from './context';
import { KeelError, errorMessage } from './errors';
import { sessionHistoryOf } from './history/sessionHistoryOf';
import type { SessionHistory } from './history/sessionHistory';
import { ConversationContext } from './llmsContext/conversationContext';
import { runLoop } from './loop/loop';
import type { ResolvedModel } from './model/modelRegistry';
import type { RunMode } from './plugins/pluginTypes';
import type { ProjectEvent, RunOptions, RunResult, UserInput } from './projectTypes';
import { ChangeJournal } from './journal/changeJournal';
import { createFileUndo, type FileUndo } from './snapshots/fileUndo';
import { ProjectRules, promptText } from './rules/projectRules';
import { PlanBook } from './plan/planBook';
import { executionPrompt, planTodos, refinePrompt } from './plan/planDocument';
import { checkImages, offeredTools, systemPromptFor, toolSpecs, userTurn } from './runRequest';
import type { Session } from './session/session';
import type { MessageMeta } from './session/sessionRecords';
import { SessionReadOnlyError } from './session/sessionErrors';
import { newMessageId } from './session/sessionIds';
import { BackgroundJobs } from './tools/backgroundJobs';
import { FileReadTracker } from './tools/fileReadTracker';
import { TodoStore } from './tools/todoStore';
import { ToolCalls } from './toolCalls';
import type { ToolCallHost } from './toolCalls';
import { recordedProject } from './workspace/currentProject';
import type { Workspace, WorkspaceFolder } from './workspace/workspace';

/**
 * One conversation: `send()` runs with all tools and the approval rules, `plan()` with the
 * read-only tools, the plan prompt and the plan model. Runs of one Project never overlap: they
 * are queued here, or by the host when it keeps the queue itself (`queuedByHost`).
 */
export class Project {
  readonly ctx: Context;
  readonly session: Session;
  readonly todos = new TodoStore();
  /** The plans made in plan mode, each a record in the log and an editable file. */
  readonly plans: PlanBook;
  private readonly reads = new FileReadTracker();
  /** Every file change this conversation applies, for undo and restore; absent on a read-only session. */
  readonly journal: ChangeJournal | undefined;
  /** Snapshots around commands, and the restore over them and the journal; absent on a read-only session. */
  readonly fileUndo: FileUndo | undefined;
  /** What the model is told about the workspace, and the folders this conversation touched. */
  readonly context: ConversationContext;
  private readonly history: SessionHistory;
  private queue: Promise<unknown> = Promise.resolve();
  /** The host runs one message at a time itself (the chat's run queue): no second queue here. */
  private readonly queuedByHost: boolean;
  private running = false;
  /** Commands started with run_in_background: they outlive a run and stop with dispose(). */
  readonly jobs: BackgroundJobs;
  /** Event rules: reminders, context and notices on the conversation's events. */
  private readonly rules: ProjectRules;
  /** The workspace with this conversation's current project (multi-root): relative tool paths start there. */
  private scoped: Workspace;
  /** What its runs' tool calls work with. */
  private readonly toolHost: ToolCallHost;

  /**
   * `jobs`: the background commands of the Project this one replaces for the same session
   * (a host rebuilding its core after a settings change), so they stay reachable.
   * `queuedByHost`: the host queues the person's messages itself, so this Project runs each at
   * once and refuses one that would overlap the run in progress instead of queueing it.
   */
  constructor(ctx: Context, session: Session, opts: { jobs?: BackgroundJobs; queuedByHost?: boolean } = {}) {
    this.ctx = ctx;
    this.session = session;
    this.queuedByHost = opts.queuedByHost ?? false;
    this.jobs =
      opts.jobs ?? new BackgroundJobs({ onError: (err) => ctx.host.log('error', `Could not stop a background command: ${err.message}`) });
    const recorded = recordedProject(ctx.workspace, session.config().currentProject);
    if (recorded.warning) ctx.host.log('warn', `session ${session.id}: ${recorded.warning}`);
    this.scoped = ctx.workspace.withCurrent(recorded.folder.path);
    this.context = new ConversationContext({
      llmsContext: ctx.llmsContext,
      plugins: ctx.plugins,
      host: ctx.host,
      sessionId: session.id,
      // Earlier tool calls' relative paths are read as relative to the project the session was left in.
      workspace: this.scoped,
      entries: () => session.entries(),
    });
    this.history = sessionHistoryOf(session);
    this.rules = new ProjectRules({
      workspace: ctx.workspace,
      home: ctx.paths.home,
      host: ctx.host,
      session,
      trusted: ctx.workspaceTrusted,
      approvalMode: () => this.approvalMode,
    });
    this.plans = new PlanBook(session);
    this.journal = session.readOnly
      ? undefined
      : new ChangeJournal({ session, host: ctx.host, display: (p) => ctx.workspace.display(p) });
    this.fileUndo = this.journal ? createFileUndo(ctx, session, this.journal) : undefined;
    this.toolHost = {
      ctx,
      session,
      journal: this.journal,
      fileUndo: this.fileUndo,
      reads: this.reads,
      todos: this.todos,
      history: this.history,
      jobs: this.jobs,
      rules: this.rules,
      context: this.context,
      workspace: () => this.scoped,
      approvalMode: () => this.approvalMode,
    };
  }

  /**
   * Ends the conversation's life in this process: stops its background commands and every
   * process they started. The host calls it when it drops the Project (another conversation,
   * the view closing, shutdown); the session log stays as it is.
   */
  async dispose(): Promise<void> {
    await this.jobs.stopAll();
    await this.fileUndo?.snapshots.settle();
  }

  get approvalMode(): ApprovalMode {
    return this.session.config().approvalMode ?? this.ctx.config.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.session.appendConfig('approvalMode', mode);
  }

  /** The conversation's current project: relative tool paths, ls/glob/grep, git and README context start there. */
  get currentWorkspaceProject(): WorkspaceFolder {
    return this.scoped.current;
  }

  /** The workspace as this conversation's tools see it (its current project set). */
  get workspace(): Workspace {
    return this.scoped;
  }

  /**
   * Makes another workspace folder (by name or real path) the current project, recorded in
   * the session so a resume comes back to it. Applies from the next tool call on.
   */
  selectWorkspaceProject(nameOrPath: string): WorkspaceFolder {
    const next = this.ctx.workspace.withCurrent(nameOrPath);
    if (next.current === this.scoped.current) return next.current;
    if (!this.session.readOnly) this.session.appendConfig('currentProject', next.current.path);
    this.scoped = next;
    return next.current;
  }

  send(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(() => this.run('act', input, opts));
  }

  /** A plan-mode run; its final answer is recorded as a plan (see `plans`). */
  plan(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(async () => this.withPlan(await this.run('plan', input, opts)));
  }

  /**
   * Executes a plan in act mode: the plan as its file now reads (the person's edits
   * included) is the task, its steps the todo list. Approval rules apply as for any message.
   */
  executePlan(planId: string, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(async () => {
      const plan = this.plans.sync(planId);
      this.plans.settle(planId, 'executed');
      const todos = planTodos(plan.text);
      this.todos.set(todos);
      return this.run('act', executionPrompt(plan.text, todos), opts);
    });
  }

  /** Asks for a revised plan (plan mode) from the person's feedback; the old plan is settled as refined. */
  refinePlan(planId: string, feedback: string, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(async () => {
      const plan = this.plans.sync(planId);
      this.plans.settle(planId, 'refined');
      return this.withPlan(await this.run('plan', refinePrompt(plan.text, feedback), opts));
    });
  }

  private withPlan(result: RunResult): RunResult {
    const messageId = this.session.leafId;
    if (result.status !== 'completed' || result.text.trim() === '' || messageId === null || this.session.readOnly) return result;
    return { ...result, plan: this.plans.record(messageId, result.text) };
  }

  /**
   * `/compact`: summarizes the whole conversation so far with the model; the next request
   * starts from the summary. 'nothing' when there is nothing to summarize; 'failed' when the
   * summary could not be made (a `compaction` event says why; the log is unchanged).
   */
  compact(opts: Pick<RunOptions, 'signal' | 'onEvent' | 'model'> = {}): Promise<CompactionOutcome | 'nothing' | 'failed'> {
    return this.enqueue(async () => {
      if (this.session.readOnly) throw new SessionReadOnlyError(this.session.id, this.session.readOnlyReason ?? 'it was opened read-only');
      const model = this.ctx.models.resolve('model', opts.model);
      return runCompaction(this.session, model, {
        reason: 'manual',
        keepTokens: 0,
        ...(opts.signal ? { signal: opts.signal } : {}),
        emit: (e) => opts.onEvent?.(e),
      });
    });
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    if (this.queuedByHost) return this.exclusive(job);
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async exclusive<T>(job: () => Promise<T>): Promise<T> {
    if (this.running) throw new KeelError('session', 'A run is going on in this conversation already; the host queues the next one.');
    this.running = true;
    try {
      return await job();
    } finally {
      this.running = false;
    }
  }

  private async run(mode: RunMode, input: UserInput, opts: RunOptions): Promise<RunResult> {
    const signal = opts.signal ?? new AbortController().signal;
    const emit = (e: ProjectEvent) => opts.onEvent?.(e);
    const model: ResolvedModel = opts.resolvedModel ?? this.ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model', opts.model);
    checkImages(model, input);
    const offered = new Map((await offeredTools(this.ctx, mode)).map((t) => [t.name, t]));
    const tools = new ToolCalls(this.toolHost, { mode, offered, signal, onToolApprove: opts.onToolApprove, emit });
    const system = await systemPromptFor(this.ctx, this.context, mode, [...offered.keys()], this.scoped.current.path, emit);
    const user = await userTurn(
      { ctx: this.ctx, sessionId: this.session.id, workspace: this.scoped, reads: this.reads, journal: this.journal, tools, signal, emit },
      input,
      model,
      opts,
    );
    // A start without an end tells the next opening that Keel stopped mid-run.
    this.session.startRun();
    const multiRoot = this.ctx.workspace.folders.length > 1;
    if (multiRoot) user.meta.projectName = this.scoped.current.name;
    const userId = this.session.appendMessage(user.message, user.meta, opts.messageId);
    emit({ type: 'message', id: userId, message: user.message });
    this.rules.beginRun(mode, promptText(input), emit);

    const specs = toolSpecs([...offered.values()]);
    let turn = 0;
    let turnMessageId: string | undefined;
    const compaction = autoCompaction({
      session: this.session,
      model,
      enabled: this.ctx.config.autoCompact,
      compactAt: this.ctx.config.compactAt,
      fixedTokens: textTokens(system) + textTokens(JSON.stringify(specs)),
      signal,
      emit,
    });
    const result = await runLoop({
      model: model.model,
      system,
      messages: this.session.history(),
      tools: specs,
      maxTurns: opts.maxTurns ?? this.ctx.config.maxTurns,
      signal,
      prepareTurn: (messages, n) => this.rules.prepareTurn(messages, n),
      executeTool: (call) => tools.execute(call),
      beforeTurn: (messages, info) => compaction.beforeTurn(messages, info),
      onOverflow: (messages, err) => compaction.onOverflow(messages, err),
      onToolInputStart: (name) => {
        if (name === 'bash') this.fileUndo?.snapshots.prefetch();
      },
      onEvent: (e) => {
        if (e.type === 'turn_start') {
          // The turn's answer gets its log id now, so a view shows it under that id while it streams.
          turn = e.turn;
          turnMessageId = newMessageId();
          emit({ ...e, messageId: turnMessageId });
          return;
        }
        if (e.type === 'message') {
          if (!e.partial) tools.startTurn(e.message);
          const meta: MessageMeta = e.partial ? { model: model.id, turn, partial: true as const } : { model: model.id, turn };
          if (multiRoot) Object.assign(meta, tools.messageProjects(e.message));
          Object.assign(meta, tools.messageDeclined(e.message));
          const turnId = e.message.role === 'assistant' ? turnMessageId : undefined;
          if (turnId !== undefined) turnMessageId = undefined;
          const id = this.session.appendMessage(e.message, meta, turnId);
          emit({ type: 'message', id, message: e.message, partial: e.partial });
          return;
        }
        if (e.type === 'usage') this.session.appendUsage({ inputTokens: e.inputTokens, outputTokens: e.outputTokens, model: model.id });
        emit(e);
      },
    }).then(
      (r) => {
        this.endRun(r.status);
        return r;
      },
      (err: unknown) => {
        this.endRun('error');
        throw err;
      },
    );
    tools.end();
    this.rules.endRun(result.status, emit);
    await this.ctx.plugins.apply({
      hook: 'conversation',
      memo: undefined,
      args: [{ sessionId: this.session.id, mode, status: result.status, turns: result.turns }],
      type: 'Series',
    });
    const out: RunResult = {
      status: result.status,
      sessionId: this.session.id,
      mode,
      turns: result.turns,
      usage: result.usage,
      contextTokens: result.contextTokens,
      text: result.text,
    };
    if (result.error) out.error = result.error;
    return out;
  }

  private endRun(status: RunResult['status']): void {
    try {
      this.session.endRun(status);
    } catch (err) {
      // The run's messages are all in the log; a missing end only makes the next opening say it was cut.
      this.ctx.host.log('warn', `could not record the end of the run: ${errorMessage(err)}`);
    }
  }
}
