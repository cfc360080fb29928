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
import type { ResolvedModel } from './model/modelRegistry';
import type { RunMode, ToolUse } from './plugins/pluginTypes';
import type { ApprovalAnswer, ApprovalRequest, ProjectEvent, RunOptions, RunResult, UserInput } from './projectTypes';
import { ChangeJournal } from './journal/changeJournal';
import type { Session } from './session/session';
import { SessionReadOnlyError } from './session/sessionErrors';
import { buildSystemPrompt } from './systemPrompt';
import { commandRulesFor, readApprovalHint } from './toolApprovalHint';
import { BackgroundJobs } from './tools/backgroundJobs';
import { builtinTools, readOnlyToolNames } from './tools/builtinTools';
import { FileReadTracker } from './tools/fileReadTracker';
import { TodoStore } from './tools/todoStore';
import { TurnPrefetch } from './turnPrefetch';
import type { AnyTool, ApprovalHint, ToolContext, ToolPreview, ToolResult } from './tools/tool';

/**
 * One conversation: `send()` runs with all tools and the approval rules, `plan()` with the
 * read-only tools, the plan prompt and the plan model. Runs of one Project are queued.
 */
export class Project {
  readonly ctx: Context;
  readonly session: Session;
  readonly todos = new TodoStore();
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

  /**
   * `jobs`: the background commands of the Project this one replaces for the same session
   * (a host rebuilding its core after a settings change), so they stay reachable.
   */
  constructor(ctx: Context, session: Session, opts: { jobs?: BackgroundJobs } = {}) {
    this.ctx = ctx;
    this.session = session;
    this.jobs =
      opts.jobs ?? new BackgroundJobs({ onError: (err) => ctx.host.log('error', `Could not stop a background command: ${err.message}`) });
    this.context = new ConversationContext({
      llmsContext: ctx.llmsContext,
      plugins: ctx.plugins,
      host: ctx.host,
      sessionId: session.id,
      workspace: ctx.workspace,
      entries: () => session.entries(),
    });
    this.history = sessionHistoryOf(session);
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

  send(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(() => this.run('act', input, opts));
  }

  plan(input: UserInput, opts: RunOptions = {}): Promise<RunResult> {
    return this.enqueue(() => this.run('plan', input, opts));
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
    const gathered = await this.context.gather(mode);
    if (gathered.gathered) {
      const { sections, rules } = gathered.gathered;
      emit({ type: 'context', sections: sections.map(({ id, title, tokens, budget, cut }) => ({ id, title, tokens, budget, cut })), rules });
    }
    const system = await this.ctx.plugins.apply<string>({
      hook: 'systemPrompt',
      memo: buildSystemPrompt({ mode, toolNames: [...offered.keys()], context: gathered.text }),
      args: [{ mode }],
      type: 'SeriesLast',
    });

    let content = await this.userContent(input);
    const mentions = opts.mentions ?? [];
    if (mentions.length > 0) {
      const expanded = await expandMentions(mentions, {
        workspace: this.ctx.workspace,
        host: this.ctx.host,
        reads: this.reads,
        signal,
        fetchUrl: (url) => this.fetchForMention(url, mode, offered, signal, opts, emit),
      });
      emit({ type: 'mentions', outcomes: expanded.outcomes });
      content = attachMentions(content, expanded.text);
    }
    const undone = this.journal?.takeRevertNote() ?? '';
    if (undone) content = attachMentions(content, undone);
    const userMessage: ModelMessage = { role: 'user', content };
    // A start without an end tells the next opening that Keel stopped mid-run.
    this.session.startRun();
    const userId = this.session.appendMessage(userMessage, mentions.length ? { model: model.id, mentions: [...mentions] } : { model: model.id });
    emit({ type: 'message', id: userId, message: userMessage });

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
      executeTool: (call, sig) => this.executeTool(mode, offered, call, sig, opts, emit),
      beforeTurn: (messages, info) => compaction.beforeTurn(messages, info),
      onOverflow: (messages, err) => compaction.onOverflow(messages, err),
      onEvent: (e) => {
        if (e.type === 'turn_start') turn = e.turn;
        if (e.type === 'message') {
          if (!e.partial) this.prefetch.startTurn(toolCallsOf(e.message));
          const meta = e.partial ? { model: model.id, turn, partial: true as const } : { model: model.id, turn };
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
    const result = await this.executeTool(mode, offered, call, signal, opts, emit);
    const text = toDisplayText(result);
    return result.isError ? { ok: false, reason: text } : { ok: true, body: text, hint: `fetch ${url} for the rest` };
  }

  private async userContent(input: UserInput): Promise<UserContent> {
    if (typeof input !== 'string') return input;
    return this.ctx.plugins.apply<string>({ hook: 'userPrompt', memo: input, args: [{ sessionId: this.session.id }], type: 'SeriesLast' });
  }

  private async toolsFor(mode: RunMode): Promise<AnyTool[]> {
    const fromPlugins = await this.ctx.plugins.apply<AnyTool[]>({ hook: 'tool', memo: [], args: [{ mode }], type: 'SeriesMerge' });
    const all = [...builtinTools(), ...fromPlugins];
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

  private async executeTool(
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
        return done(`Plan mode is read-only: "${call.toolName}" is not available. Present the plan; the person executes it in act mode.`);
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
      workspace: this.ctx.workspace,
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
    };
    let preview: ToolPreview | undefined;
    try {
      preview = tool.preview ? await tool.preview(input, tctx) : undefined;
    } catch (err) {
      return done(errorMessage(err));
    }
    const touchesProtected = (preview?.paths ?? []).some((p) => this.ctx.workspace.isProtected(p));
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
      paths: (preview?.paths ?? []).map((path) => this.ctx.workspace.display(path)),
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
    tctx.approval = { approved: true, reason: answer.reason, content: answer.content, note: answer.note };
    tctx.preview = p.preview;
    let result: ToolResult;
    try {
      result = await tool.execute(p.input, tctx);
    } catch (err) {
      result = fail(`Tool "${tool.name}" failed: ${errorMessage(err)}`);
    }
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
