import type { JournalEntry } from '../../core/journal';
import type { RuleInEffect } from '../../core/llmsContext';
import type { ProjectEvent } from '../../core/projectTypes';
import type { RulesRecord } from '../../core/session';
import type { McpRequestPart } from '../../protocol/mcpRequests';
import type { MessageUsage } from '../../protocol/messageUsage';
import type { PlanInfo } from '../../protocol/planState';
import type { ConfigSummary, WorkspaceProjects, RuleInEffectInfo, RunState, SessionInfo, Snapshot, TodoItem, UiError, Usage } from '../../protocol/sessionState';
import type { ToolApprovalRequest } from '../../protocol/toolApproval';
import type { CommandFile, MessageStatus, UiMessage } from '../../protocol/uiMessage';
import { appliedChange } from '../parts/appliedChange';
import { commandFilesPatch, filesReverted } from '../parts/commandFiles';
import type { EventSink } from './eventSink';
import { firedRuleInfos, ruleAnchor, withRules } from '../parts/firedRules';
import { MessageList } from './messageList';
import { RunProjection } from './runProjection';
import { McpAppBook } from '../parts/mcpAppBook';

export interface ConversationStateOptions {
  now?: () => number;
  /** Ids for messages the host creates (user messages, streamed assistant turns). */
  newId?: (kind: 'user' | 'assistant' | 'tool') => string;
}

let counter = 0;
function defaultId(kind: string): string {
  return `${kind}-${Date.now().toString(36)}-${(++counter).toString(36)}`;
}

/**
 * The conversation as the view shows it, held by the host so that any `ready` can get the
 * whole of it (mid-stream included) in one snapshot: the messages (see MessageList), the run
 * in progress projected onto them (see RunProjection), and the small records around them
 * (session, run state, usage, todos, configuration, plan). Each change goes out as the one
 * small event that describes it.
 */
export class ConversationState {
  private readonly sink: EventSink;
  private readonly newId: (kind: 'user' | 'assistant' | 'tool') => string;
  private readonly list: MessageList;
  private readonly projection: RunProjection;
  /** The MCP Apps shown on this conversation's cards (live calls only). */
  readonly apps = new McpAppBook();

  session: SessionInfo = { id: null, title: null };
  run: RunState = { running: false, mode: 'act', approvalMode: 'manual', model: null, queued: 0 };
  usage: Usage | null = null;
  todos: TodoItem[] = [];
  config: ConfigSummary = { modelConfigured: false, workspaceTrusted: true, problem: null };
  /** The conversation's newest plan. */
  plan: PlanInfo | undefined;
  /** The rules files of the latest request in this conversation. */
  private rules: RuleInEffectInfo[] | undefined;
  /** The workspace's projects and the current one; kept across conversations (the folders are the window's). */
  private projects: WorkspaceProjects | undefined;

  constructor(sink: EventSink, opts: ConversationStateOptions = {}) {
    this.sink = sink;
    this.newId = opts.newId ?? defaultId;
    this.list = new MessageList(sink);
    this.projection = new RunProjection(this.list, sink, this.newId, opts.now ?? Date.now, this.apps);
  }

  messages(): UiMessage[] {
    return this.list.all();
  }

  message(id: string): UiMessage | undefined {
    return this.list.get(id);
  }

  snapshot(pendingApprovals: readonly ToolApprovalRequest[]): Snapshot {
    return {
      session: { ...this.session },
      messages: this.messages(),
      state: { ...this.run },
      usage: this.usage,
      pendingApprovals: [...pendingApprovals],
      todos: [...this.todos],
      config: { ...this.config },
      ...(this.rules ? { rules: [...this.rules] } : {}),
      ...(this.projects ? { workspaceProjects: structuredClone(this.projects) } : {}),
      ...(this.plan ? { plan: { ...this.plan } } : {}),
    };
  }

  /** The project list or the current project changed: the view hears it unless nothing did. */
  setWorkspaceProjects(projects: WorkspaceProjects): void {
    if (this.projects && JSON.stringify(this.projects) === JSON.stringify(projects)) return;
    this.projects = structuredClone(projects);
    this.sink.emit('workspaceProjects', structuredClone(projects));
  }

  /** Replaces the conversation (new or resumed session); the caller sends a snapshot. */
  replace(messages: readonly UiMessage[], session: SessionInfo, usage: Usage | null, todos: readonly TodoItem[]): void {
    this.list.replace(messages);
    this.session = { ...session };
    this.usage = usage;
    this.todos = [...todos];
    this.rules = undefined;
    this.projection.reset();
  }

  newMessageId(kind: 'user' | 'assistant' | 'tool'): string {
    return this.newId(kind);
  }

  /** Adds a message (queued ones go last, others before the queue) and sends it. */
  add(message: UiMessage): void {
    this.list.add(message);
  }

  setStatus(id: string, status: MessageStatus, error?: { code: string; message: string }): void {
    if (!this.list.has(id)) return;
    this.list.emit({ type: 'messagePatch', data: { messageId: id, status, error: error ?? null } });
  }

  /** Moves a queued message to just before the remaining queue (it is about to run). */
  dequeue(id: string): void {
    this.list.dequeue(id);
  }

  setRun(patch: Partial<RunState>): void {
    // The reasoning choices are rebuilt on every refresh: the same ones are no change.
    if (patch.reasoning && JSON.stringify(patch.reasoning) === JSON.stringify(this.run.reasoning)) patch = { ...patch, reasoning: this.run.reasoning };
    const next = { ...this.run, ...patch };
    if (sameRecord(next, this.run)) return;
    this.run = next;
    this.sink.emit('state', { ...next });
  }

  setSession(info: SessionInfo): void {
    // The worktree branch belongs to the conversation: an update of its id or title keeps it.
    const branch = info.branch ?? (this.session.id === null || this.session.id === info.id ? this.session.branch : undefined);
    if (info.id === this.session.id && info.title === this.session.title && info.readOnly === this.session.readOnly && branch === this.session.branch) return;
    info = { ...info, ...(branch ? { branch } : {}) };
    this.session = { ...info };
    this.sink.emit('session', { ...info });
  }

  setConfig(summary: ConfigSummary): void {
    if (sameRecord(summary, this.config)) return;
    this.config = { ...summary };
    this.sink.emit('config', { ...summary });
  }

  /** What the model calls behind one message used (its answer, a compaction's summary). */
  setMessageUsage(messageId: string, usage: MessageUsage): void {
    this.projection.showUsage(messageId, usage);
  }

  setUsage(usage: Usage): void {
    this.usage = { ...usage };
    this.sink.emit('usage', { ...usage });
  }

  setPlan(plan: PlanInfo | undefined): void {
    if (plan === this.plan || (plan && this.plan && sameRecord(plan, this.plan))) return;
    this.plan = plan ? { ...plan } : undefined;
    this.sink.emit('plan', { plan: plan ? { ...plan } : null });
  }

  setTodos(items: readonly TodoItem[]): void {
    this.todos = items.map((i) => ({ ...i }));
    this.sink.emit('todos', { items: this.todos.map((i) => ({ ...i })) });
  }

  error(error: UiError): void {
    this.sink.emit('error', error);
  }

  beginRun(model: string): void {
    this.projection.begin(model);
  }

  /** An MCP server's request card, added to a message or replacing its earlier look (see McpCards). */
  showMcpRequest(messageId: string, part: McpRequestPart): void {
    if (this.list.has(messageId)) this.list.emit({ type: 'mcpRequest', data: { messageId, part } });
  }

  /** A tool call is now waiting for the person. */
  awaitingApproval(toolCallId: string): void {
    this.projection.awaitingApproval(toolCallId);
  }

  /** Journal entries of a resumed conversation onto their tool cards; the caller sends a snapshot. */
  attachChanges(changes: readonly JournalEntry[]): void {
    for (const change of changes) this.list.fold({ type: 'toolPatch', data: { toolCallId: change.toolCallId, change: appliedChange(change) } });
  }

  /** Files commands of a resumed conversation changed, onto their cards; the caller sends a snapshot. */
  attachCommandFiles(byCall: ReadonlyMap<string, CommandFile[]>): void {
    for (const [toolCallId, files] of byCall) {
      const part = this.list.toolCall(toolCallId);
      if (part) this.list.fold({ type: 'toolPatch', data: { toolCallId, ...commandFilesPatch(part, files) } });
    }
  }

  /** Event rules of a resumed conversation onto their turns; the caller sends a snapshot. */
  attachRules(records: readonly RulesRecord[]): void {
    const messages = this.messages();
    for (const record of records) {
      const id = ruleAnchor(record, messages);
      if (id !== undefined) this.list.fold({ type: 'messagePatch', data: { messageId: id, rules: withRules(this.list.get(id)!, firedRuleInfos(record.event, record.fired)).rules! } });
    }
  }

  /** Changes were put back: their cards say so. */
  markReverted(changeIds: ReadonlySet<string>): void {
    for (const message of this.list.all()) {
      for (const part of message.parts) {
        if (part.type !== 'toolCall') continue;
        const files = filesReverted(part, changeIds);
        if (files) this.list.emit({ type: 'toolPatch', data: { toolCallId: part.toolCallId, files } });
      }
    }
    for (const message of this.list.all()) {
      for (const part of message.parts) {
        if (part.type !== 'toolCall' || !part.change || !changeIds.has(part.change.id) || part.change.reverted) continue;
        this.list.emit({ type: 'toolPatch', data: { toolCallId: part.toolCallId, change: { ...part.change, reverted: true } } });
      }
    }
  }

  /** Tool calls of this message and every later one, in order ("Restore files to here"). */
  toolCallIdsFrom(messageId: string): string[] | undefined {
    const ids = this.list.ids();
    const at = ids.indexOf(messageId);
    if (at < 0) return undefined;
    return ids.slice(at).flatMap((id) => this.list.get(id)!.parts.flatMap((p) => (p.type === 'toolCall' ? [p.toolCallId] : [])));
  }

  apply(event: ProjectEvent, cancelled: () => boolean): void {
    if (event.type === 'usage') return; // Totals and the context meter need the session and the model: the controller sends them.
    if (event.type === 'context') {
      this.rules = event.rules.map(ruleInfo);
      this.sink.emit('rules', { rules: [...this.rules] });
      return;
    }
    this.projection.apply(event, cancelled);
  }

  /**
   * Closes the run's loose ends: a turn still streaming and cards still running become
   * cancelled, or errored with the reason when the run failed.
   */
  finishRun(outcome: { cancelled: boolean; error?: UiError }): void {
    this.projection.finish(outcome);
  }
}

function sameRecord<T extends object>(a: T, b: T): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}

function ruleInfo(rule: RuleInEffect): RuleInEffectInfo {
  const info: RuleInEffectInfo = { display: rule.display, scope: rule.scope, status: rule.status };
  if (rule.appliesTo !== undefined) info.appliesTo = rule.appliesTo;
  if (rule.trigger !== undefined) info.trigger = rule.trigger;
  if (rule.matched !== undefined) info.matched = { ...rule.matched };
  return info;
}
