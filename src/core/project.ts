import { createHash } from 'node:crypto';
import { appToolCall } from './appToolCall';
import type { AppToolCall, AppToolCallOptions, AppToolCallResult } from './appToolCall';
import { autoCompaction, runCompaction } from './compaction/autoCompaction';
import { costOf } from './model/modelCatalogue';
import type { CompactionOutcome } from './compaction/compactor';
import { textTokens } from './compaction/tokenEstimate';
import { contextParts, requestWeights } from './contextParts';
import type { ApprovalMode } from './config/configSchema';
import type { Context } from './context';
import { ConversationRuntime } from './conversationRuntime';
import type { ConversationRuntimeOptions } from './conversationRuntime';
import { errorMessage } from './errors';
import type { ChangeJournal } from './journal/changeJournal';
import type { ConversationContext } from './llmsContext/conversationContext';
import { runLoop } from './loop/loop';
import type { ResolvedModel } from './model/modelRegistry';
import { runCallSettings } from './model/reasoning';
import type { PlanBook } from './plan/planBook';
import { executionPrompt, planTodos, refinePrompt } from './plan/planDocument';
import type { RunMode } from './plugins/pluginTypes';
import type { ProjectEvent, RunOptions, RunResult, UserInput } from './projectTypes';
import { promptText } from './rules/projectRules';
import { addedMcpTools, checkImages, offeredTools, requestPrompt, toolSpecs, userTurn } from './runRequest';
import { invokedSkill } from './setup/skillInvocation';
import { invokedCommand } from './setup/commandInvocation';
import { promptHooks, stopHooks } from './hooks/promptHooks';
import { narrowTools } from './setup/commandFiles';
import type { Session } from './session/session';
import { SessionReadOnlyError } from './session/sessionErrors';
import type { MessageMeta } from './session/sessionRecords';
import type { FileUndo } from './snapshots/fileUndo';
import type { BackgroundJobs } from './tools/backgroundJobs';
import type { TodoStore } from './tools/todoStore';
import { ToolCalls } from './toolCalls';
import type { ToolCallHost } from './toolCalls';
import type { Workspace, WorkspaceFolder } from './workspace/workspace';
import { newMessageId } from './session/sessionIds';
import { addUsage } from './model/tokenUsage';
import { agentSystemPrompt, chosenAgent, conversationAgentTools } from './subagents/conversationAgent';
import { RunSubagents } from './subagents/runSubagents';

/**
 * One conversation's runs: `send()` runs with all tools and the approval rules, `plan()` with
 * the read-only tools, the plan prompt and the plan model. What the conversation holds lives in
 * its `runtime`, which outlasts a settings change (`useContext()`); each run takes the Context
 * current when it starts. Runs of one Project never overlap: they go through the conversation's
 * one queue (the runtime's), in the turn the caller holds (`RunOptions.turn`) or behind the rest.
 */
export class Project {
  readonly runtime: ConversationRuntime;
  /** What its runs' tool calls work with. */
  private readonly toolHost: ToolCallHost;
  /** The last run's Stop hooks, while they run. */
  private stopping: Promise<void> = Promise.resolve();

  /**
   * `jobs`: the background commands of the Project this one continues for the same session,
   * so they stay reachable. `queue`: the conversation's queue when the host keeps it.
   */
  constructor(ctx: Context, session: Session, opts: ConversationRuntimeOptions = {}) {
    const runtime = new ConversationRuntime(ctx, session, opts);
    this.runtime = runtime;
    this.toolHost = {
      get ctx() {
        return runtime.ctx;
      },
      session,
      journal: runtime.journal,
      get fileUndo() {
        return runtime.fileUndo;
      },
      reads: runtime.reads,
      todos: runtime.todos,
      history: runtime.history,
      jobs: runtime.jobs,
      rules: runtime.rules,
      context: runtime.context,
      workspace: () => runtime.workspace,
      approvalMode: () => runtime.approvalMode,
    };
  }

  /** A tool call an MCP App in this conversation made: the model's approval path, outside any run. */
  appToolCall(call: AppToolCall, opts: AppToolCallOptions): Promise<AppToolCallResult> {
    return appToolCall(this.toolHost, call, opts);
  }

  /** The Context the next run starts with. */
  get ctx(): Context {
    return this.runtime.ctx;
  }

  get session(): Session {
    return this.runtime.session;
  }

  get todos(): TodoStore {
    return this.runtime.todos;
  }

  /** The plans made in plan mode, each a record in the log and an editable file. */
  get plans(): PlanBook {
    return this.runtime.plans;
  }

  /** Every file change this conversation applies, for undo and restore; absent on a read-only session. */
  get journal(): ChangeJournal | undefined {
    return this.runtime.journal;
  }

  /** Snapshots around commands, and the restore over them and the journal; absent on a read-only session. */
  get fileUndo(): FileUndo | undefined {
    return this.runtime.fileUndo;
  }

  /** What the model is told about the workspace, and the folders this conversation touched. */
  get context(): ConversationContext {
    return this.runtime.context;
  }

  /** Commands started with run_in_background: they outlive a run and stop with dispose(). */
  get jobs(): BackgroundJobs {
    return this.runtime.jobs;
  }

  /** The settings changed: the next run works with `ctx`; the conversation keeps what it holds. */
  useContext(ctx: Context): void {
    this.runtime.useContext(ctx);
  }

  /**
   * Ends the conversation's life in this process: stops its background commands and every
   * process they started. The host calls it when it drops the Project (another conversation,
   * the view closing, shutdown); the session log stays as it is.
   */
  async dispose(): Promise<void> {
    // A Stop hook still running (the CLI exits right after) gets to finish.
    await this.stopping;
    return this.runtime.dispose();
  }

  get approvalMode(): ApprovalMode {
    return this.runtime.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.session.appendConfig('approvalMode', mode);
  }

  /** The custom agent the conversation works as from its next run on (by name; '' for none); an unknown name is refused. */
  async useAgent(name: string): Promise<void> {
    const agent = name.trim() === '' ? undefined : await chosenAgent(() => this.ctx.llmsContext.agents(), name);
    if ((this.session.config().agent ?? '') !== (agent?.name ?? '')) this.session.appendConfig('agent', agent?.name ?? '');
  }

  /** The custom agent the conversation works as, if any. */
  get agent(): string | undefined {
    return this.session.config().agent;
  }

  /** The conversation's current project: relative tool paths, ls/glob/grep, git and README context start there. */
  get currentWorkspaceProject(): WorkspaceFolder {
    return this.runtime.workspace.current;
  }

  /** The workspace as this conversation's tools see it (its current project set). */
  get workspace(): Workspace {
    return this.runtime.workspace;
  }

  /**
   * Makes another workspace folder (by name or real path) the current project, recorded in
   * the session so a resume comes back to it. Applies from the next tool call on.
   */
  selectWorkspaceProject(nameOrPath: string): WorkspaceFolder {
    const next = this.ctx.workspace.withCurrent(nameOrPath);
    if (next.current === this.runtime.workspace.current) return next.current;
    if (!this.session.readOnly) this.session.appendConfig('currentProject', next.current.path);
    this.runtime.setWorkspace(next);
    return next.current;
  }

  send(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(() => this.run('act', input, opts), opts);
  }

  /** A plan-mode run; its final answer is recorded as a plan (see `plans`). */
  plan(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(async () => this.withPlan(await this.run('plan', input, opts)), opts);
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
    }, opts);
  }

  /** Asks for a revised plan (plan mode) from the person's feedback; the old plan is settled as refined. */
  refinePlan(planId: string, feedback: string, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(async () => {
      const plan = this.plans.sync(planId);
      this.plans.settle(planId, 'refined');
      return this.withPlan(await this.run('plan', refinePrompt(plan.text, feedback), opts));
    }, opts);
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
  compact(opts: Pick<RunOptions, 'signal' | 'turn' | 'onEvent' | 'model'> = {}): Promise<CompactionOutcome | 'nothing' | 'failed'> {
    return this.enqueue(async () => {
      if (this.session.readOnly) throw new SessionReadOnlyError(this.session.id, this.session.readOnlyReason ?? 'it was opened read-only');
      const model = this.ctx.models.resolve('model', opts.model);
      const signal = opts.signal ?? opts.turn?.signal;
      return runCompaction(this.session, model, {
        reason: 'manual',
        keepTokens: 0,
        ...(signal ? { signal } : {}),
        emit: (e) => opts.onEvent?.(e),
      });
    }, opts);
  }

  private enqueue<T>(job: () => Promise<T>, opts: Pick<RunOptions, 'turn'>): Promise<T> {
    return this.runtime.enqueue(job, opts.turn);
  }

  private async run(mode: RunMode, input: UserInput, opts: RunOptions): Promise<RunResult> {
    // The Context current as the run starts serves the whole run (a settings change applies to the next).
    const ctx = this.ctx;
    const { reads, journal, rules, context } = this.runtime;
    const scoped = this.runtime.workspace;
    const signal = opts.signal ?? opts.turn?.signal ?? new AbortController().signal;
    const emit = (e: ProjectEvent) => opts.onEvent?.(e);
    const model: ResolvedModel = opts.resolvedModel ?? ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model', opts.model);
    checkImages(model, input);
    // A command file's `allowed-tools` may only narrow what this run is offered.
    const command = await invokedCommand(input, () => ctx.llmsContext.commandFiles());
    const offerable = await offeredTools(ctx, mode);
    // The agent the run works as (`--agent`, the composer's choice) may only narrow them too.
    const agentName = opts.agent ?? this.session.config().agent;
    const agent = agentName ? await chosenAgent(() => ctx.llmsContext.agents(), agentName) : undefined;
    const allowed = new Set(narrowTools((agent ? conversationAgentTools(offerable, agent) : offerable).map((t) => t.name), command?.file.tools ?? []));
    const offered = new Map(offerable.filter((t) => allowed.has(t.name)).map((t) => [t.name, t]));
    const tools = new ToolCalls(this.toolHost, { mode, offered, signal, onToolApprove: opts.onToolApprove, emit });
    const subagents = new RunSubagents({ ctx, session: this.session, model, maxTurns: opts.maxTurns ?? ctx.config.maxTurns, call: (call) => tools.execute(call), emit });
    // The task tool, where agents are defined and no command file or agent narrowed the tools: its subagents' calls go through `tools`.
    if (!command?.file.tools.length && (!agent || conversationAgentTools([{ name: 'task' }], agent).length > 0)) {
      const agents = await ctx.llmsContext.agents();
      if (agents.length > 0) offered.set('task', subagents.taskTool(agents, [...offered.values()]));
    }
    await context.mentioned((opts.mentions ?? []).flatMap((m) => (m.kind === 'file' || m.kind === 'folder' ? [m.path] : [])));
    const prompt = await requestPrompt(ctx, context, this.session.uncompacted().messages, mode, scoped.current.path, emit);
    const system = agent ? agentSystemPrompt(prompt.system, agent) : prompt.system;
    const userId = opts.messageId ?? newMessageId();
    // The leaf, not history(): building the whole branch for one yes/no would cost a long conversation every send.
    const hookText = await promptHooks(ctx.hooks, { id: this.session.id, first: this.session.leafId === null }, promptText(input), signal);
    rules.beginRun(mode, promptText(input), emit, userId);
    const user = await userTurn(
      { ctx, sessionId: this.session.id, workspace: scoped, reads, journal, tools, signal, emit },
      input,
      model,
      { ...opts, context: prompt.context, ruleText: rules.takeText(), invokedText: joinTexts(command?.text ?? (await invokedSkill(input, () => ctx.llmsContext.skills())), hookText) },
    );
    // A start without an end tells the next opening that Keel stopped mid-run.
    this.session.startRun();
    const multiRoot = ctx.workspace.folders.length > 1;
    if (multiRoot) user.meta.projectName = scoped.current.name;
    this.session.appendMessage(user.message, user.meta, userId);
    emit({ type: 'message', id: userId, message: user.message, at: this.session.writtenAt(userId) });

    const specs = toolSpecs([...offered.values()]);
    let turn = 0;
    let turnMessageId: string | undefined;
    const compaction = autoCompaction({
      session: this.session,
      model,
      enabled: ctx.config.autoCompact,
      compactAt: ctx.config.compactAt,
      fixedTokens: textTokens(system) + textTokens(JSON.stringify(specs)),
      signal,
      emit,
    });
    const result = await runLoop({
      model: model.model,
      system,
      messages: this.session.history(),
      tools: specs,
      // The session id, hashed: stable for the conversation, and says nothing about it to the provider.
      cacheKey: createHash('sha256').update(this.session.id).digest('hex').slice(0, 32),
      ...runCallSettings(model, ctx.config.reasoning),
      maxTurns: opts.maxTurns ?? ctx.config.maxTurns,
      signal,
      prepareTurn: (n) => rules.prepareTurn(n),
      newTools: () => addedMcpTools(ctx, mode, offered, command?.file.tools ?? []),
      executeTool: (call) => tools.execute(call),
      beforeTurn: (messages, info) => compaction.beforeTurn(messages, info),
      onOverflow: (messages, err) => compaction.onOverflow(messages, err),
      onToolInputStart: (name) => {
        if (offered.get(name)?.category === 'command') this.fileUndo?.snapshots.prefetch();
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
          // The only user messages a run adds are the event rules' (prepareTurn).
          const meta: MessageMeta = e.message.role === 'user' ? { rules: true } : e.partial ? { model: model.id, turn, partial: true as const } : { model: model.id, turn };
          if (multiRoot) Object.assign(meta, tools.messageProjects(e.message));
          Object.assign(meta, tools.messageDeclined(e.message), tools.messageDisplays(e.message), subagents.messageSubagents(e.message));
          const turnId = e.message.role === 'assistant' ? turnMessageId : undefined;
          if (turnId !== undefined) turnMessageId = undefined;
          const id = this.session.appendMessage(e.message, meta, turnId);
          emit({ type: 'message', id, message: e.message, partial: e.partial, at: this.session.writtenAt(id) });
          return;
        }
        if (e.type === 'usage') {
          const { type: _type, turn: _turn, ...tokens } = e;
          const messageId = turnMessageId;
          // Before the answer is logged, the session's history is what this call was sent.
          const parts = contextParts(requestWeights({ system, tools: specs, messages: this.session.history() }), tokens.inputTokens, tokens.outputTokens);
          this.session.appendUsage({ ...tokens, model: model.id, ...(messageId ? { messageId } : {}), ...(model.price ? { costUsd: costOf(tokens, model.price) } : {}) });
          emit({ ...e, ...(messageId ? { messageId } : {}), contextParts: parts });
          return;
        }
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
    rules.endRun(result.status, emit);
    // Stop hooks run after the run has ended: only closing the conversation waits for them.
    this.stopping = stopHooks(ctx.hooks, this.session.id, result.status, (message) => ctx.host.log('warn', message));
    await ctx.plugins.apply({
      hook: 'conversation',
      memo: undefined,
      args: [{ sessionId: this.session.id, mode, status: result.status, turns: result.turns }],
      type: 'Series',
    });
    const usage = { ...result.usage };
    addUsage(usage, subagents.usage);
    const out: RunResult = {
      status: result.status,
      sessionId: this.session.id,
      mode,
      turns: result.turns,
      usage: model.price ? { ...usage, costUsd: costOf(result.usage, model.price) + subagents.costUsd } : usage,
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

/** Texts attached to the person's message, in order; undefined when there are none. */
function joinTexts(...texts: (string | undefined)[]): string | undefined {
  const kept = texts.filter((t): t is string => t !== undefined && t !== '');
  return kept.length ? kept.join('\n\n') : undefined;
}
