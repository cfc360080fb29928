import * as z from 'zod';
import type { ModelMessage } from 'ai';
import { decideApproval } from './approval';
import type { ApprovalVerdict } from './approval';
import { childEnvPolicy } from './env/childEnvPolicy';
import type { ApprovalMode } from './config/configSchema';
import type { Context } from './context';
import { errorMessage } from './errors';
import type { SessionHistory } from './history/sessionHistory';
import type { ChangeJournal } from './journal/changeJournal';
import { snapshotsFor, type FileUndo } from './snapshots/fileUndo';
import type { ConversationContext } from './llmsContext/conversationContext';
import type { LoopToolCall } from './loop/loopTypes';
import type { RunMode, ToolUse } from './plugins/pluginTypes';
import type { ProjectEvent, RunOptions } from './projectTypes';
import { noteApprovedChanges } from './sandbox/approvedChanges';
import type { ApprovalAnswer, ApprovalRequest } from './tools/tool';
import type { ProjectRules } from './rules/projectRules';
import type { Session } from './session/session';
import type { MessageMeta } from './session/sessionRecords';
import { commandRulesFor, readApprovalHint } from './toolApprovalHint';
import type { BackgroundJobs } from './tools/backgroundJobs';
import { allowedInPlanMode } from './tools/builtinTools';
import type { FileReadTracker } from './tools/fileReadTracker';
import type { TodoStore } from './tools/todoStore';
import type { AnyTool, ApprovalHint, ToolContext, ToolPreview, ToolResult } from './tools/tool';
import { TurnPrefetch } from './turnPrefetch';
import { projectsOf, toolResultIds } from './workspace/currentProject';
import type { Workspace } from './workspace/workspace';
import { isBuiltinTool } from './tools/builtinTools';
import { presentCall } from './tools/toolPresentation';
import type { ToolPresentation } from './tools/toolPresentation';

/** What of the conversation (the Project) its tool calls work with. */
export interface ToolCallHost {
  readonly ctx: Context;
  readonly session: Session;
  readonly journal: ChangeJournal | undefined;
  /** Snapshots around commands; absent on a read-only session. */
  readonly fileUndo: FileUndo | undefined;
  readonly reads: FileReadTracker;
  readonly todos: TodoStore;
  readonly history: SessionHistory;
  readonly jobs: BackgroundJobs;
  readonly rules: ProjectRules;
  readonly context: ConversationContext;
  /** The workspace with the conversation's current project; it may change between calls. */
  workspace(): Workspace;
  approvalMode(): ApprovalMode;
}

/** What one run gives its tool calls. */
export interface ToolCallRun {
  mode: RunMode;
  /** The tools offered to the model in this run, by name. */
  offered: ReadonlyMap<string, AnyTool>;
  signal: AbortSignal;
  onToolApprove: RunOptions['onToolApprove'];
  emit(event: ProjectEvent): void;
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

/**
 * One run's tool calls, built once per run: each call is resolved (hooks, input check),
 * previewed, decided (a rule, or the person), executed, and its result passed through the
 * hooks. While a file change waits for the person, the turn's next file changes are asked too.
 */
export class ToolCalls {
  private readonly prefetch = new TurnPrefetch<ResolvedCall, PreviewedCall, ApprovalAnswer>();
  /** Workspace folders each tool call touched, until its result is logged. */
  private readonly callProjects = new Map<string, string[]>();
  /** Calls the person declined whose results are not logged yet. */
  private readonly declined = new Set<string>();

  constructor(
    private readonly host: ToolCallHost,
    private readonly run: ToolCallRun,
  ) {}

  /** The model's message of a new turn: its calls may be looked at ahead of their turn. */
  startTurn(message: ModelMessage): void {
    this.prefetch.startTurn(toolCallsOf(message));
  }

  /** The run is over: nothing fetched ahead is kept. */
  end(): void {
    this.prefetch.clear();
  }

  /** A model's tool call: run, then reported to the event rules. */
  async execute(call: LoopToolCall): Promise<ToolResult> {
    const result = await this.call(call);
    const tool = this.run.offered.get(call.toolName);
    this.host.rules.toolResult({ toolCallId: call.toolCallId, tool: call.toolName, category: tool?.category, input: call.input, result }, this.run.emit);
    return result;
  }

  /** A call through the whole pipeline (also used for @url mentions, which go through fetch). */
  async call(call: LoopToolCall): Promise<ToolResult> {
    const { mode, offered } = this.run;
    const early = await this.prefetch.take(call.toolCallId);
    const resolved = early?.resolved ?? (await this.resolve(call));
    if (resolved.kind === 'done') return resolved.result;
    let previewed = early?.previewed;
    if (!previewed) {
      const seen = await this.preview(resolved, call);
      if (seen.kind === 'done') return seen.result;
      previewed = seen.previewed;
    }
    let answer = early?.answer;
    if (!answer) {
      answer = this.askFor(previewed, call);
      if (previewed.verdict.decision === 'ask' && previewed.preview?.change) {
        // While this change waits for the person, the turn's next file changes are asked too.
        this.prefetch.after(call.toolCallId, previewed.preview.paths, {
          eligible: (next) => mode !== 'plan' && isFileChangeTool(offered.get(next.toolName)),
          resolve: (next) => this.resolve(next),
          preview: async (next) => {
            if (next.kind === 'done') return undefined;
            const seen = await this.preview(next, next.call);
            if (seen.kind === 'done') return undefined;
            return { previewed: seen.previewed, paths: seen.previewed.preview?.paths ?? [], ask: seen.previewed.verdict.decision === 'ask' };
          },
          ask: (next) => this.askFor(next, next.call),
          log: (message) => this.host.ctx.host.log('debug', message),
        });
      }
    }
    return this.finish(previewed, await answer, call);
  }

  /** Which projects a message concerns: the current one, and for tool results the folders their calls touched. */
  messageProjects(message: ModelMessage): Pick<MessageMeta, 'projectName' | 'projects'> {
    const out: Pick<MessageMeta, 'projectName' | 'projects'> = { projectName: this.host.workspace().current.name };
    const ids = toolResultIds(message);
    if (ids.length === 0) return out;
    const names: string[] = [];
    for (const id of ids) {
      for (const name of this.callProjects.get(id) ?? []) if (!names.includes(name)) names.push(name);
      this.callProjects.delete(id);
    }
    return names.length ? { ...out, projects: names } : out;
  }

  /**
   * The cards of a model message's calls to tools that are not built in (MCP, plugins), for its
   * log record: a reopened conversation may not have those tools, and shows the card they drew.
   */
  messageDisplays(message: ModelMessage): Pick<MessageMeta, 'displays'> {
    if (message.role !== 'assistant' || typeof message.content === 'string') return {};
    const displays: Record<string, ToolPresentation> = {};
    for (const part of message.content) {
      if (part.type !== 'tool-call' || isBuiltinTool(part.toolName)) continue;
      const tool = this.run.offered.get(part.toolName);
      if (tool) displays[part.toolCallId] = presentCall(tool, part.toolName, part.input);
    }
    return Object.keys(displays).length ? { displays } : {};
  }

  /** A tool message's declined calls, for its log record (a reopened conversation shows them as declined). */
  messageDeclined(message: ModelMessage): Pick<MessageMeta, 'declined'> {
    const ids = toolResultIds(message).filter((id) => this.declined.delete(id));
    return ids.length ? { declined: ids } : {};
  }

  /** The tool, after the toolUse hook, with its input checked; or the error the model gets. */
  private async resolve(call: LoopToolCall): Promise<ResolvedCall> {
    const { mode, offered } = this.run;
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
    if (mode === 'plan' && !allowedInPlanMode(tool)) {
      return done(`Plan mode is read-only: "${tool.name}" cannot run.`);
    }
    const use = await this.host.ctx.plugins.apply<ToolUse>({
      hook: 'toolUse',
      memo: { toolCallId: call.toolCallId, name: call.toolName, input: call.input },
      type: 'SeriesLast',
    });
    const parsed = tool.inputSchema.safeParse(use.input);
    if (!parsed.success) {
      return done(`Invalid input for tool "${tool.name}": ${z.prettifyError(parsed.error)}`);
    }
    const hooks = this.host.ctx.hooks;
    if (hooks) {
      const verdict = await hooks.run('PreToolUse', { session_id: this.host.session.id, tool_input: parsed.data }, this.run.signal, tool.name);
      if (verdict.blocked) return done(`A PreToolUse hook blocked this ${tool.name} call; nothing was done. ${verdict.blocked}`);
    }
    return { kind: 'ok', call, tool, use, input: parsed.data };
  }

  /** What the call would do (its preview) and which approval rule applies. */
  private async preview(
    resolved: Extract<ResolvedCall, { kind: 'ok' }>,
    call: LoopToolCall,
  ): Promise<{ kind: 'done'; result: ToolResult } | { kind: 'ok'; previewed: PreviewedCall }> {
    const { host } = this;
    const { signal, emit } = this.run;
    const { tool, input } = resolved;
    const workspace = host.workspace();
    const tctx: ToolContext = {
      signal,
      workspace,
      host: host.journal
        ? host.journal.hostFor(call.toolCallId, ({ entry, warning }) =>
            emit(warning ? { type: 'file_change', change: entry, warning } : { type: 'file_change', change: entry }),
          )
        : host.ctx.host,
      reads: host.reads,
      todos: host.todos,
      toolCallId: call.toolCallId,
      history: host.history,
      commandRules: commandRulesFor(host.ctx.config.commands, host.session.config().allowedCommands),
      jobs: host.jobs,
      snapshots: snapshotsFor(host.fileUndo, call.toolCallId, emit, (level, message) => host.ctx.host.log(level, message)),
      sandbox: host.ctx.sandbox,
      envPolicy: childEnvPolicy(host.ctx.config),
      onOutput: (text) => emit({ type: 'tool_output', toolCallId: call.toolCallId, text }),
      onProgress: (progress) => emit({ type: 'tool_progress', toolCallId: call.toolCallId, progress }),
    };
    let preview: ToolPreview | undefined;
    try {
      preview = tool.preview ? await tool.preview(input, tctx) : undefined;
    } catch (err) {
      return done(errorMessage(err));
    }
    const touchesProtected = (preview?.paths ?? []).some((p) => workspace.isProtected(p));
    let own: ReturnType<typeof readApprovalHint>;
    try {
      own = readApprovalHint(tool.needsApproval ? await tool.needsApproval(input, tctx) : undefined);
    } catch (err) {
      return done(errorMessage(err));
    }
    const verdict = decideApproval({
      mode: host.approvalMode(),
      category: tool.category,
      touchesProtected,
      toolNeedsApproval: own.needsApproval,
      insist: own.hint?.insist,
      allowedForSession: host.session.config().allowedTools.has(tool.name),
      alwaysAsk: own.hint?.alwaysAsk,
      sandboxed: own.hint?.sandboxed,
      writesFiles: own.hint?.writesFiles,
      why: own.hint?.why,
    });
    return { kind: 'ok', previewed: { ...resolved, tctx, preview, touchesProtected, verdict, hint: own.hint } };
  }

  /** The decision: a rule's, or the person's through `onToolApprove`. */
  private async askFor(p: PreviewedCall, call: LoopToolCall): Promise<ApprovalAnswer> {
    const { onToolApprove, signal } = this.run;
    const { tool, preview, verdict, touchesProtected } = p;
    if (verdict.decision === 'allow') return { approved: true };
    if (!onToolApprove) {
      return { approved: false, reason: `no one was there to approve it (${verdict.rule}; approval mode ${this.host.approvalMode()})` };
    }
    let answer: ApprovalAnswer;
    const workspace = this.host.workspace();
    const request: ApprovalRequest = {
      toolCallId: call.toolCallId,
      tool: tool.name,
      category: tool.category,
      input: p.input,
      summary: preview?.summary ?? tool.name,
      paths: (preview?.paths ?? []).map((path) => workspace.display(path)),
      protected: touchesProtected,
      change: preview?.change,
      rule: verdict.rule,
    };
    if (p.hint?.allowPrefixes && !touchesProtected) request.allowPrefixes = p.hint.allowPrefixes;
    if (p.hint?.network) request.network = true;
    if (p.hint?.unsandboxed) request.unsandboxed = true;
    if (p.hint?.writeAccess) request.writeAccess = true;
    try {
      answer = await onToolApprove(request);
    } catch (err) {
      answer = { approved: false, reason: signal.aborted ? 'the run was cancelled' : `approval failed: ${errorMessage(err)}` };
    }
    if (answer.approved && answer.scope === 'session' && !touchesProtected && !p.hint?.alwaysAsk) {
      // A tool with its own hint (bash) is allowed by prefix, never as a whole.
      if (!p.hint) this.host.session.appendConfig('allowTool', tool.name);
      for (const prefix of p.hint?.allowPrefixes ?? []) this.host.session.appendConfig('allowCommand', prefix);
    }
    return answer;
  }

  private async finish(p: PreviewedCall, answer: ApprovalAnswer, call: LoopToolCall): Promise<ToolResult> {
    const { host } = this;
    const { tool, tctx, verdict } = p;
    this.run.emit({
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
      this.declined.add(call.toolCallId);
      const why = answer.reason ? ` Reason: ${answer.reason}` : '';
      return fail(`The user declined this ${tool.name} call; nothing was done.${why} Do not retry the same call; adjust or ask.`);
    }
    if (this.run.signal.aborted) return fail('Cancelled by the user before this tool ran.');
    host.rules.notePaths(call.toolCallId, p.preview?.paths ?? []);
    tctx.approval = verdict.decision === 'allow' && verdict.readOnlyWorkspace ? { ...answer, readOnlyWorkspace: true } : answer;
    // A sandboxed run going on meanwhile must not undo a protected path the person approved changing.
    if (p.touchesProtected) noteApprovedChanges(p.preview?.paths ?? []);
    tctx.preview = p.preview;
    let result: ToolResult;
    try {
      result = await tool.execute(p.input, tctx);
    } catch (err) {
      result = fail(`Tool "${tool.name}" failed: ${errorMessage(err)}`);
    }
    const touched = projectsOf(host.workspace(), p.preview?.paths ?? []);
    if (touched.length) this.callProjects.set(call.toolCallId, touched);
    result = await host.context.afterTool(tool.category, p.preview?.paths ?? [], result);
    result = await host.ctx.plugins.apply<ToolResult>({ hook: 'toolResult', memo: result, args: [p.use], type: 'SeriesLast' });
    return this.afterHooks(tool.name, p.input, result);
  }

  /** PostToolUse hooks see the call and its result; what they say (or a block's reason) goes to the model with the result. */
  private async afterHooks(name: string, input: unknown, result: ToolResult): Promise<ToolResult> {
    const hooks = this.host.ctx.hooks;
    if (!hooks) return result;
    const response = typeof result.output === 'string' ? result.output : result.output.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const verdict = await hooks.run('PostToolUse', { session_id: this.host.session.id, tool_input: input, tool_response: { output: response, is_error: result.isError === true } }, this.run.signal, name);
    const notes = [...(verdict.blocked ? [`[PostToolUse hook] ${verdict.blocked}`] : []), ...verdict.context];
    if (notes.length === 0) return result;
    const added = `\n\n${notes.join('\n\n')}`;
    return { ...result, output: typeof result.output === 'string' ? result.output + added : [...result.output, { type: 'text', text: added.trimStart() }] };
  }
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
