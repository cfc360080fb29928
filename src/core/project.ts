import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { ModelMessage, UserContent } from 'ai';
import { decideApproval } from './approval';
import { autoCompaction, runCompaction } from './compaction/autoCompaction';
import type { CompactionOutcome } from './compaction/compactor';
import { textTokens } from './compaction/tokenEstimate';
import type { ApprovalVerdict } from './approval';
import type { ApprovalMode } from './config/configSchema';
import type { Context } from './context';
import { KeelError, errorMessage } from './errors';
import { sessionHistoryOf } from './history/sessionHistoryOf';
import type { SessionHistory } from './history/sessionHistory';
import { ConversationContext } from './llmsContext/conversationContext';
import { runLoop } from './loop/loop';
import type { LoopToolCall, LoopToolSpec } from './loop/loopTypes';
import { toDisplayText } from './loop/toolOutput';
import { attachMentions } from './mentions/attachMentions';
import { expandMentions } from './mentions/expandMentions';
import type { MentionBody } from './mentions/fileMentions';
import { mentionNotesOf, type MentionNote } from './mentions/mentionTypes';
import type { ResolvedModel } from './model/modelRegistry';
import type { RunMode, ToolUse } from './plugins/pluginTypes';
import { acceptPluginTools } from './plugins/pluginTools';
import type { ApprovalAnswer, ApprovalRequest, ProjectEvent, RunOptions, RunResult, UserInput } from './projectTypes';
import { ChangeJournal } from './journal/changeJournal';
import { ProjectRules, promptText } from './rules/projectRules';
import { PlanBook } from './plan/planBook';
import { executionPrompt, planTodos, refinePrompt } from './plan/planDocument';
import type { Session } from './session/session';
import type { MessageMeta } from './session/sessionRecords';
import { SessionReadOnlyError } from './session/sessionErrors';
import { buildSystemPrompt } from './systemPrompt';
import { commandRulesFor, readApprovalHint } from './toolApprovalHint';
import { BackgroundJobs } from './tools/backgroundJobs';
import { builtinTools, readOnlyToolNames } from './tools/builtinTools';
import { FileReadTracker } from './tools/fileReadTracker';
import { TodoStore } from './tools/todoStore';
import { TurnPrefetch } from './turnPrefetch';
import type { AnyTool, ApprovalHint, ToolContext, ToolPreview, ToolResult } from './tools/tool';
import { projectsOf, recordedProject, toolResultIds } from './workspace/currentProject';
import type { Workspace, WorkspaceFolder } from './workspace/workspace';

/**
 * One conversation: `send()` runs with all tools and the approval rules, `plan()` with the
 * read-only tools, the plan prompt and the plan model. Runs of one Project are queued.
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
  private readonly prefetch = new TurnPrefetch<ResolvedCall, PreviewedCall, ApprovalAnswer>();
  /** What the model is told about the workspace, and the folders this conversation touched. */
  readonly context: ConversationContext;
  private readonly history: SessionHistory;
  private queue: Promise<unknown> = Promise.resolve();
  /** Commands started with run_in_background: they outlive a run and stop with dispose(). */
  readonly jobs: BackgroundJobs;
  /** Event rules: reminders, context and notices on the conversation's events. */
  private readonly rules: ProjectRules;
  /** The workspace with this conversation's current project (multi-root): relative tool paths start there. */
  private scoped: Workspace;
  /** Workspace folders each tool call touched, until its result is logged. */
  private readonly callProjects = new Map<string, string[]>();

  /**
   * `jobs`: the background commands of the Project this one replaces for the same session
   * (a host rebuilding its core after a settings change), so they stay reachable.
   */
  constructor(ctx: Context, session: Session, opts: { jobs?: BackgroundJobs } = {}) {
    this.ctx = ctx;
    this.session = session;
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
  }

  /**
   * Ends the conversation's life in this process: stops its background commands and every
   * process they started. The host calls it when it drops the Project (another conversation,
   * the view closing, shutdown); the session log stays as it is.
   */
  async dispose(): Promise<void> {
    await this.jobs.stopAll();
  }

  get approvalMode(): ApprovalMode {
    return this.session.config().approvalMode ?? this.ctx.config.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.session.appendConfig('approvalMode', mode);
  }

  /** The conversation's current project: relative tool paths, ls/glob/grep, git and README context start there. */
  get currentProject(): WorkspaceFolder {
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
  selectProject(nameOrPath: string): WorkspaceFolder {
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
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(mode: RunMode, input: UserInput, opts: RunOptions): Promise<RunResult> {
    const signal = opts.signal ?? new AbortController().signal;
    const emit = (e: ProjectEvent) => opts.onEvent?.(e);
    const model: ResolvedModel = this.ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model', opts.model);
    if (!model.supportsImages && hasImages(input)) {
      // Refused before anything is logged, so the person can resend without the image.
      throw new KeelError(
        'usage',
        `The model ${model.id} does not take images. Remove the image, or choose a model that reads images ` +
          `(if this one does, set "images": true for it under providers.${model.provider}.models in Keel's config).`,
      );
    }
    const tools = await this.toolsFor(mode);
    const offered = new Map(tools.map((t) => [t.name, t]));
    const gathered = await this.context.gather(mode, this.scoped.current.path);
    if (gathered.gathered) {
      const { sections, rules } = gathered.gathered;
      emit({ type: 'context', sections: sections.map(({ id, title, tokens, budget, cut }) => ({ id, title, tokens, budget, cut })), rules });
    }
    const system = await this.ctx.plugins.apply<string>({
      hook: 'systemPrompt',
      memo: buildSystemPrompt({ mode, toolNames: [...offered.keys()], context: gathered.text, displayLanguage: this.ctx.host.displayLanguage }),
      args: [{ mode }],
      type: 'SeriesLast',
    });

    let content = await this.userContent(input);
    const mentions = opts.mentions ?? [];
    let mentionNotes: MentionNote[] = [];
    if (mentions.length > 0) {
      const expanded = await expandMentions(mentions, {
        workspace: this.scoped,
        host: this.ctx.host,
        reads: this.reads,
        signal,
        fetchUrl: (url) => this.fetchForMention(url, mode, offered, signal, opts, emit),
      });
      emit({ type: 'mentions', outcomes: expanded.outcomes });
      mentionNotes = mentionNotesOf(expanded.outcomes);
      content = attachMentions(content, expanded.text);
    }
    const undone = this.journal?.takeRevertNote() ?? '';
    if (undone) content = attachMentions(content, undone);
    const userMessage: ModelMessage = { role: 'user', content };
    // A start without an end tells the next opening that Keel stopped mid-run.
    this.session.startRun();
    const userMeta: MessageMeta = mentions.length
      ? { model: model.id, mentions: [...mentions], ...(mentionNotes.length ? { mentionNotes } : {}) }
      : { model: model.id };
    const multiRoot = this.ctx.workspace.folders.length > 1;
    if (multiRoot) userMeta.projectName = this.scoped.current.name;
    const userId = this.session.appendMessage(userMessage, userMeta);
    emit({ type: 'message', id: userId, message: userMessage });
    this.rules.beginRun(mode, promptText(input), emit);

    const specs: Record<string, LoopToolSpec> = {};
    for (const t of tools) {
      specs[t.name] = { description: t.description, parameters: toolParameters(t), readOnly: t.category === 'read' };
    }
    let turn = 0;
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
      executeTool: (call, sig) => this.executeTool(mode, offered, call, sig, opts, emit),
      beforeTurn: (messages, info) => compaction.beforeTurn(messages, info),
      onOverflow: (messages, err) => compaction.onOverflow(messages, err),
      onEvent: (e) => {
        if (e.type === 'turn_start') turn = e.turn;
        if (e.type === 'message') {
          if (!e.partial) this.prefetch.startTurn(toolCallsOf(e.message));
          const meta: MessageMeta = e.partial ? { model: model.id, turn, partial: true as const } : { model: model.id, turn };
          if (multiRoot) Object.assign(meta, this.projectMeta(e.message));
          const id = this.session.appendMessage(e.message, meta);
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
    this.prefetch.clear();
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

  /** Which projects a message concerns: the current one, and for tool results the folders their calls touched. */
  private projectMeta(message: ModelMessage): Pick<MessageMeta, 'projectName' | 'projects'> {
    const out: Pick<MessageMeta, 'projectName' | 'projects'> = { projectName: this.scoped.current.name };
    const ids = toolResultIds(message);
    if (ids.length === 0) return out;
    const names: string[] = [];
    for (const id of ids) {
      for (const name of this.callProjects.get(id) ?? []) if (!names.includes(name)) names.push(name);
      this.callProjects.delete(id);
    }
    return names.length ? { ...out, projects: names } : out;
  }

  private endRun(status: RunResult['status']): void {
    try {
      this.session.endRun(status);
    } catch (err) {
      // The run's messages are all in the log; a missing end only makes the next opening say it was cut.
      this.ctx.host.log('warn', `could not record the end of the run: ${errorMessage(err)}`);
    }
  }

  /** @url mentions go through the fetch tool like the model's own calls: its approval, its limits. */
  private async fetchForMention(
    url: string,
    mode: RunMode,
    offered: Map<string, AnyTool>,
    signal: AbortSignal,
    opts: RunOptions,
    emit: (e: ProjectEvent) => void,
  ): Promise<MentionBody> {
    const call: LoopToolCall = { toolCallId: `mention-${randomUUID()}`, toolName: 'fetch', input: { url } };
    const result = await this.runTool(mode, offered, call, signal, opts, emit);
    const text = toDisplayText(result);
    return result.isError ? { ok: false, reason: text } : { ok: true, body: text, hint: `fetch ${url} for the rest` };
  }

  private async userContent(input: UserInput): Promise<UserContent> {
    if (typeof input !== 'string') return input;
    return this.ctx.plugins.apply<string>({ hook: 'userPrompt', memo: input, args: [{ sessionId: this.session.id }], type: 'SeriesLast' });
  }

  private async toolsFor(mode: RunMode): Promise<AnyTool[]> {
    const offeredByPlugins = await this.ctx.plugins.apply<unknown[]>({ hook: 'tool', memo: [], args: [{ mode }], type: 'SeriesMerge' });
    const fromPlugins = acceptPluginTools(offeredByPlugins, (level, message) => this.ctx.host.log(level, message));
    const all = [...builtinTools(), ...fromPlugins, ...(await this.ctx.mcp.tools())];
    const byName = new Map<string, AnyTool>();
    for (const t of all) {
      if (byName.has(t.name)) {
        this.ctx.host.log('warn', `Tool "${t.name}" is defined twice; the first definition is used.`);
        continue;
      }
      byName.set(t.name, t);
    }
    let tools = [...byName.values()];
    if (mode === 'plan') tools = tools.filter((t) => t.category === 'read' || readOnlyToolNames.includes(t.name));
    if (!this.ctx.workspaceTrusted) tools = tools.filter((t) => t.category === 'read' || t.category === 'network');
    return tools;
  }

  /** A model's tool call: run, then reported to the event rules. */
  private async executeTool(
    mode: RunMode,
    offered: Map<string, AnyTool>,
    call: LoopToolCall,
    signal: AbortSignal,
    opts: RunOptions,
    emit: (e: ProjectEvent) => void,
  ): Promise<ToolResult> {
    const result = await this.runTool(mode, offered, call, signal, opts, emit);
    const tool = offered.get(call.toolName);
    this.rules.toolResult({ toolCallId: call.toolCallId, tool: call.toolName, category: tool?.category, input: call.input, result }, emit);
    return result;
  }

  private async runTool(
    mode: RunMode,
    offered: Map<string, AnyTool>,
    call: LoopToolCall,
    signal: AbortSignal,
    opts: RunOptions,
    emit: (e: ProjectEvent) => void,
  ): Promise<ToolResult> {
    const early = await this.prefetch.take(call.toolCallId);
    const resolved = early?.resolved ?? (await this.resolveCall(mode, offered, call));
    if (resolved.kind === 'done') return resolved.result;
    let previewed = early?.previewed;
    if (!previewed) {
      const seen = await this.previewCall(resolved, call, signal, emit);
      if (seen.kind === 'done') return seen.result;
      previewed = seen.previewed;
    }
    let answer = early?.answer;
    if (!answer) {
      answer = this.askFor(previewed, call, signal, opts);
      if (previewed.verdict.decision === 'ask' && previewed.preview?.change) {
        // While this change waits for the person, the turn's next file changes are asked too.
        this.prefetch.after(call.toolCallId, previewed.preview.paths, {
          eligible: (next) => mode !== 'plan' && isFileChangeTool(offered.get(next.toolName)),
          resolve: (next) => this.resolveCall(mode, offered, next),
          preview: async (next) => {
            if (next.kind === 'done') return undefined;
            const seen = await this.previewCall(next, next.call, signal, emit);
            if (seen.kind === 'done') return undefined;
            return { previewed: seen.previewed, paths: seen.previewed.preview?.paths ?? [], ask: seen.previewed.verdict.decision === 'ask' };
          },
          ask: (next) => this.askFor(next, next.call, signal, opts),
          log: (message) => this.ctx.host.log('debug', message),
        });
      }
    }
    return this.finishCall(previewed, await answer, call, signal, emit);
  }

  /** The tool, after the toolUse hook, with its input checked; or the error the model gets. */
  private async resolveCall(mode: RunMode, offered: Map<string, AnyTool>, call: LoopToolCall): Promise<ResolvedCall> {
    const tool = offered.get(call.toolName);
    if (!tool) {
      if (mode === 'plan') {
        return done(
          `Plan mode is read-only: "${call.toolName}" is not available, so nothing was changed. ` +
            'Investigate with the read-only tools and present the plan; the person executes it in act mode.',
        );
      }
      return done(`Unknown tool "${call.toolName}". Available tools: ${[...offered.keys()].join(', ')}.`);
    }
    if (mode === 'plan' && tool.category !== 'read' && !readOnlyToolNames.includes(tool.name)) {
      return done(`Plan mode is read-only: "${tool.name}" cannot run.`);
    }
    const use = await this.ctx.plugins.apply<ToolUse>({
      hook: 'toolUse',
      memo: { toolCallId: call.toolCallId, name: call.toolName, input: call.input },
      type: 'SeriesLast',
    });
    const parsed = tool.inputSchema.safeParse(use.input);
    if (!parsed.success) {
      return done(`Invalid input for tool "${tool.name}": ${z.prettifyError(parsed.error)}`);
    }
    return { kind: 'ok', call, tool, use, input: parsed.data };
  }

  /** What the call would do (its preview) and which approval rule applies. */
  private async previewCall(
    resolved: Extract<ResolvedCall, { kind: 'ok' }>,
    call: LoopToolCall,
    signal: AbortSignal,
    emit: (e: ProjectEvent) => void,
  ): Promise<{ kind: 'done'; result: ToolResult } | { kind: 'ok'; previewed: PreviewedCall }> {
    const { tool, input } = resolved;
    const tctx: ToolContext = {
      signal,
      workspace: this.scoped,
      host: this.journal
        ? this.journal.hostFor(call.toolCallId, ({ entry, warning }) =>
            emit(warning ? { type: 'file_change', change: entry, warning } : { type: 'file_change', change: entry }),
          )
        : this.ctx.host,
      reads: this.reads,
      todos: this.todos,
      toolCallId: call.toolCallId,
      history: this.history,
      commandRules: commandRulesFor(this.ctx.config.commands, this.session.config().allowedCommands),
      jobs: this.jobs,
      onOutput: (text) => emit({ type: 'tool_output', toolCallId: call.toolCallId, text }),
    };
    let preview: ToolPreview | undefined;
    try {
      preview = tool.preview ? await tool.preview(input, tctx) : undefined;
    } catch (err) {
      return done(errorMessage(err));
    }
    const touchesProtected = (preview?.paths ?? []).some((p) => this.scoped.isProtected(p));
    let own: ReturnType<typeof readApprovalHint>;
    try {
      own = readApprovalHint(tool.needsApproval ? await tool.needsApproval(input, tctx) : undefined);
    } catch (err) {
      return done(errorMessage(err));
    }
    const verdict = decideApproval({
      mode: this.approvalMode,
      category: tool.category,
      touchesProtected,
      toolNeedsApproval: own.needsApproval,
      insist: own.hint?.insist,
      allowedForSession: this.session.config().allowedTools.has(tool.name),
    });
    return { kind: 'ok', previewed: { ...resolved, tctx, preview, touchesProtected, verdict, hint: own.hint } };
  }

  /** The decision: a rule's, or the person's through `onToolApprove`. */
  private async askFor(p: PreviewedCall, call: LoopToolCall, signal: AbortSignal, opts: RunOptions): Promise<ApprovalAnswer> {
    const { tool, preview, verdict, touchesProtected } = p;
    if (verdict.decision === 'allow') return { approved: true };
    if (!opts.onToolApprove) {
      return { approved: false, reason: `no one was there to approve it (${verdict.rule}; approval mode ${this.approvalMode})` };
    }
    let answer: ApprovalAnswer;
    const request: ApprovalRequest = {
      toolCallId: call.toolCallId,
      name: tool.name,
      category: tool.category,
      input: p.input,
      summary: preview?.summary ?? tool.name,
      paths: (preview?.paths ?? []).map((path) => this.scoped.display(path)),
      protected: touchesProtected,
      change: preview?.change,
      rule: verdict.rule,
    };
    if (p.hint?.allowPrefixes && !touchesProtected) request.allowPrefixes = p.hint.allowPrefixes;
    try {
      answer = await opts.onToolApprove(request);
    } catch (err) {
      answer = { approved: false, reason: signal.aborted ? 'the run was cancelled' : `approval failed: ${errorMessage(err)}` };
    }
    if (answer.approved && answer.scope === 'session' && !touchesProtected) {
      // A tool with its own hint (bash) is allowed by prefix, never as a whole.
      if (!p.hint) this.session.appendConfig('allowTool', tool.name);
      for (const prefix of p.hint?.allowPrefixes ?? []) this.session.appendConfig('allowCommand', prefix);
    }
    return answer;
  }

  private async finishCall(
    p: PreviewedCall,
    answer: ApprovalAnswer,
    call: LoopToolCall,
    signal: AbortSignal,
    emit: (e: ProjectEvent) => void,
  ): Promise<ToolResult> {
    const { tool, tctx, verdict } = p;
    emit({
      type: 'approval',
      toolCallId: call.toolCallId,
      name: tool.name,
      category: tool.category,
      approved: answer.approved,
      automatic: verdict.decision === 'allow',
      rule: verdict.rule,
      reason: answer.reason,
    });
    if (!answer.approved) {
      const why = answer.reason ? ` Reason: ${answer.reason}` : '';
      return fail(`The user declined this ${tool.name} call; nothing was done.${why} Do not retry the same call; adjust or ask.`);
    }
    if (signal.aborted) return fail('Cancelled by the user before this tool ran.');
    this.rules.notePaths(call.toolCallId, p.preview?.paths ?? []);
    tctx.approval = { approved: true, reason: answer.reason, content: answer.content, note: answer.note };
    tctx.preview = p.preview;
    let result: ToolResult;
    try {
      result = await tool.execute(p.input, tctx);
    } catch (err) {
      result = fail(`Tool "${tool.name}" failed: ${errorMessage(err)}`);
    }
    const touched = projectsOf(this.scoped, p.preview?.paths ?? []);
    if (touched.length) this.callProjects.set(call.toolCallId, touched);
    result = await this.context.afterTool(tool.category, p.preview?.paths ?? [], result);
    return this.ctx.plugins.apply<ToolResult>({ hook: 'toolResult', memo: result, args: [p.use], type: 'SeriesLast' });
  }
}

type ResolvedCall = { kind: 'done'; result: ToolResult } | { kind: 'ok'; call: LoopToolCall; tool: AnyTool; use: ToolUse; input: unknown };

interface PreviewedCall {
  call: LoopToolCall;
  tool: AnyTool;
  use: ToolUse;
  input: unknown;
  tctx: ToolContext;
  preview: ToolPreview | undefined;
  touchesProtected: boolean;
  verdict: ApprovalVerdict;
  /** The tool's detailed verdict, when it gave one. */
  hint?: ApprovalHint;
}

/** Tools that change files and show the change before running (write, edit, plugin file tools). */
function isFileChangeTool(tool: AnyTool | undefined): boolean {
  return tool !== undefined && tool.category === 'write' && tool.preview !== undefined;
}

function done(message: string): { kind: 'done'; result: ToolResult } {
  return { kind: 'done', result: fail(message) };
}

/** Tool calls of an assistant message, in order. */
function toolCallsOf(message: ModelMessage): LoopToolCall[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }] : [],
  );
}

function fail(message: string): ToolResult {
  return { output: message, isError: true };
}

const schemaCache = new WeakMap<AnyTool, Record<string, unknown>>();

/** The JSON Schema the model sees, derived once per tool from its zod schema. */
function toolParameters(tool: AnyTool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  let schema = schemaCache.get(tool);
  if (!schema) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    schema = rest;
    schemaCache.set(tool, schema);
  }
  return schema;
}

function hasImages(input: UserInput): boolean {
  return typeof input !== 'string' && input.some((p) => p.type === 'image' || (p.type === 'file' && p.mediaType.startsWith('image/')));
}
