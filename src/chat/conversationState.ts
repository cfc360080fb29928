import type { JournalEntry } from '../core/journal/changeJournal';
import type { RuleInEffect } from '../core/llmsContext/contextTypes';
import type { ProjectEvent } from '../core/projectTypes';
import type { HostSide } from '../protocol/catalogue';
import type { HostEventName } from '../protocol/catalogue';
import type { EventIn } from '../protocol/side';
import type { ConfigSummary, RuleInEffectInfo, RunState, SessionInfo, Snapshot, TodoItem, UiError, Usage } from '../protocol/sessionState';
import type { Projects } from '../protocol/sessionState';
import type { PlanInfo } from '../protocol/planState';
import type { ToolApprovalRequest } from '../protocol/toolApproval';
import { appendDelta } from '../protocol/uiMessage';
import type { AppliedChange, MessageStatus, ToolCallPart, ToolCallState, UiMessage, UiPart } from '../protocol/uiMessage';
import { capToolOutput } from '../protocol/limits';
import { assistantParts, compactionUiMessage, toolCallPart } from './uiMessages';
import { insertionIndex } from '../protocol/messageOrder';
import type { RulesRecord } from '../core/session/sessionRecords';
import type { FiredRuleInfo } from '../protocol/uiMessage';
import { firedRuleInfos, ruleAnchor, withRules } from './firedRules';
import { withMentionNotes } from './mentionNotes';
import { LiveToolOutput } from './liveToolOutput';
import { mentionNotesOf } from '../core/mentions/mentionTypes';

/** Where the state's changes go: the attached view's outbox, or nowhere while no view is open. */
export interface EventSink {
  emit<E extends HostEventName>(event: E, data: EventIn<HostSide, E>): void;
}

export interface ConversationStateOptions {
  now?: () => number;
  /** Ids for messages the host creates (user messages, streamed assistant turns). */
  newId?: (kind: 'user' | 'assistant' | 'tool') => string;
}

const FINAL_TOOL_STATES: ReadonlySet<ToolCallState> = new Set(['done', 'error', 'rejected', 'cancelled']);

let counter = 0;
function defaultId(kind: string): string {
  return `${kind}-${Date.now().toString(36)}-${(++counter).toString(36)}`;
}

/**
 * The conversation as the view shows it, held by the host so that any `ready` can get the
 * whole of it (mid-stream included) in one snapshot. Project events are applied here and
 * each change goes out as the one small event that describes it.
 *
 * Messages waiting in the queue stay at the end of the list; anything new is inserted
 * before them, so the order is the order in which things will have happened.
 */
export class ConversationState {
  private readonly sink: EventSink;
  private readonly now: () => number;
  private readonly newId: (kind: 'user' | 'assistant' | 'tool') => string;

  private order: string[] = [];
  private readonly byId = new Map<string, UiMessage>();
  session: SessionInfo = { id: null, title: null };
  run: RunState = { running: false, mode: 'act', approvalMode: 'manual', model: null, queued: 0 };
  usage: Usage | null = null;
  todos: TodoItem[] = [];
  config: ConfigSummary = { modelConfigured: false, workspaceTrusted: true, problem: null };
  /** The conversation's newest plan. */
  plan: PlanInfo | undefined;

  // The run in progress.
  private turnMessageId: string | undefined;
  /** The rules files of the latest request in this conversation. */
  private rules: RuleInEffectInfo[] | undefined;
  /** The workspace's projects and the current one; kept across conversations (the folders are the window's). */
  private projects: Projects | undefined;
  private runModel: string | undefined;
  private readonly callOwner = new Map<string, string>();
  private readonly announced = new Map<string, { name: string; input: unknown }>();
  private readonly rejected = new Set<string>();
  private readonly touched = new Set<string>();
  /** Calls asked about before their card exists (file changes of a turn are asked together). */
  private readonly awaiting = new Set<string>();
  /** Rules that fired before the turn they belong to has a message (on the prompt). */
  private pendingRules: FiredRuleInfo[] = [];
  /** Running tools' output so far, passed to the view a few times a second. */
  private readonly live = new LiveToolOutput((toolCallId, output) => this.showLiveOutput(toolCallId, output));
  /** The divider of a compaction being written. */
  private compactionId: string | undefined;

  constructor(sink: EventSink, opts: ConversationStateOptions = {}) {
    this.sink = sink;
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? defaultId;
  }

  messages(): UiMessage[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  message(id: string): UiMessage | undefined {
    return this.byId.get(id);
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
      ...(this.projects ? { projects: structuredClone(this.projects) } : {}),
      ...(this.plan ? { plan: { ...this.plan } } : {}),
    };
  }

  /** The project list or the current project changed: the view hears it unless nothing did. */
  setProjects(projects: Projects): void {
    if (this.projects && JSON.stringify(this.projects) === JSON.stringify(projects)) return;
    this.projects = structuredClone(projects);
    this.sink.emit('projects', structuredClone(projects));
  }

  /** Replaces the conversation (new or resumed session); the caller sends a snapshot. */
  replace(messages: readonly UiMessage[], session: SessionInfo, usage: Usage | null, todos: readonly TodoItem[]): void {
    this.order = messages.map((m) => m.id);
    this.byId.clear();
    for (const m of messages) this.byId.set(m.id, m);
    this.session = { ...session };
    this.usage = usage;
    this.todos = [...todos];
    this.rules = undefined;
    this.resetRun();
  }

  newMessageId(kind: 'user' | 'assistant' | 'tool'): string {
    return this.newId(kind);
  }

  /** Adds a message (queued ones go last, others before the queue) and sends it. */
  add(message: UiMessage): void {
    if (this.byId.has(message.id)) {
      this.put(message);
      return;
    }
    const at = insertionIndex(this.order.length, (i) => this.byId.get(this.order[i]!)?.status, message.status);
    this.order.splice(at, 0, message.id);
    this.byId.set(message.id, message);
    this.sink.emit('message', { message });
  }

  setStatus(id: string, status: MessageStatus, error?: { code: string; message: string }): void {
    const message = this.byId.get(id);
    if (!message) return;
    const next: UiMessage = { ...message, status };
    if (error) next.error = error;
    else delete next.error;
    this.put(next);
  }

  /** Moves a queued message to just before the remaining queue (it is about to run). */
  dequeue(id: string): void {
    const message = this.byId.get(id);
    if (!message) return;
    this.order = this.order.filter((m) => m !== id);
    this.byId.delete(id);
    this.add({ ...message, status: 'done' });
  }

  setRun(patch: Partial<RunState>): void {
    const next = { ...this.run, ...patch };
    if (sameRecord(next, this.run)) return;
    this.run = next;
    this.sink.emit('state', { ...next });
  }

  setSession(info: SessionInfo): void {
    if (info.id === this.session.id && info.title === this.session.title && info.readOnly === this.session.readOnly) return;
    this.session = { ...info };
    this.sink.emit('session', { ...info });
  }

  setConfig(summary: ConfigSummary): void {
    if (sameRecord(summary, this.config)) return;
    this.config = { ...summary };
    this.sink.emit('config', { ...summary });
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
    this.resetRun();
    this.runModel = model;
  }

  /** A tool call is now waiting for the person. */
  awaitingApproval(toolCallId: string): void {
    this.awaiting.add(toolCallId);
    this.setToolState(toolCallId, 'awaitingApproval');
  }

  /** Journal entries of a resumed conversation onto their tool cards; the caller sends a snapshot. */
  attachChanges(changes: readonly JournalEntry[]): void {
    for (const change of changes) {
      for (const id of this.order) {
        const message = this.byId.get(id)!;
        if (!message.parts.some((p) => p.type === 'toolCall' && p.toolCallId === change.toolCallId)) continue;
        this.byId.set(id, withChange(message, change));
        break;
      }
    }
  }

  /** Event rules of a resumed conversation onto their turns; the caller sends a snapshot. */
  attachRules(records: readonly RulesRecord[]): void {
    const messages = this.messages();
    for (const record of records) {
      const id = ruleAnchor(record, messages);
      if (id !== undefined) this.byId.set(id, withRules(this.byId.get(id)!, firedRuleInfos(record.event, record.fired)));
    }
  }

  /** Changes were put back: their cards say so. */
  markReverted(changeIds: ReadonlySet<string>): void {
    for (const id of this.order) {
      const message = this.byId.get(id)!;
      let changed = false;
      const parts = message.parts.map((p): UiPart => {
        if (p.type !== 'toolCall' || !p.change || !changeIds.has(p.change.id) || p.change.reverted) return p;
        changed = true;
        return { ...p, change: { ...p.change, reverted: true } };
      });
      if (changed) this.put({ ...message, parts });
    }
  }

  /** Tool calls of this message and every later one, in order ("Restore files to here"). */
  toolCallIdsFrom(messageId: string): string[] | undefined {
    const at = this.order.indexOf(messageId);
    if (at < 0) return undefined;
    return this.order.slice(at).flatMap((id) => this.byId.get(id)!.parts.flatMap((p) => (p.type === 'toolCall' ? [p.toolCallId] : [])));
  }

  apply(event: ProjectEvent, cancelled: () => boolean): void {
    switch (event.type) {
      case 'turn_start':
        this.turnMessageId = undefined;
        return;
      case 'text_delta':
      case 'reasoning_delta': {
        if (event.text === '') return;
        const kind = event.type === 'text_delta' ? 'text' : 'reasoning';
        const id = this.ensureTurnMessage();
        const message = this.byId.get(id)!;
        this.byId.set(id, { ...message, parts: appendDelta(message.parts, kind, event.text) });
        this.sink.emit(event.type === 'text_delta' ? 'textDelta' : 'reasoningDelta', { messageId: id, delta: event.text });
        return;
      }
      case 'retry': {
        // The loop discards what the failed attempt streamed; so does the view.
        const id = this.turnMessageId;
        const message = id === undefined ? undefined : this.byId.get(id);
        if (message && message.parts.length > 0) this.put({ ...message, parts: [] });
        this.sink.emit('retry', {
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          error: event.error,
          delayMs: Math.max(0, Math.round(event.delayMs)),
        });
        return;
      }
      case 'message':
        this.applyMessage(event);
        return;
      case 'tool_use':
        this.showCall(event.toolCallId, event.name, event.input, 'running');
        return;
      case 'file_change': {
        const owner = this.callOwner.get(event.change.toolCallId);
        const message = owner === undefined ? undefined : this.byId.get(owner);
        if (message) this.put(withChange(message, event.change));
        if (event.warning) this.error({ code: 'internal', message: event.warning, retryable: false });
        return;
      }
      case 'approval':
        this.awaiting.delete(event.toolCallId);
        if (!event.approved) this.rejected.add(event.toolCallId);
        else if (this.toolPart(event.toolCallId)?.state === 'awaitingApproval') this.setToolState(event.toolCallId, 'running');
        return;
      case 'tool_result': {
        if (!this.callOwner.has(event.toolCallId)) {
          // Calls that never ran (invalid input, cancelled first) get their card with the result.
          const call = this.announced.get(event.toolCallId);
          this.showCall(event.toolCallId, event.name, call?.input ?? {}, 'running');
        }
        const state: ToolCallState = this.rejected.has(event.toolCallId)
          ? 'rejected'
          : cancelled()
            ? 'cancelled'
            : event.isError
              ? 'error'
              : 'done';
        const { output, truncated } = capToolOutput(event.output);
        this.live.end(event.toolCallId);
        this.updateToolPart(event.toolCallId, ({ liveOutput: _live, ...part }) => ({ ...part, state, result: { output, isError: event.isError, truncated } }));
        this.sink.emit('toolResult', { toolCallId: event.toolCallId, name: event.name, state, isError: event.isError, output, truncated });
        return;
      }
      case 'usage':
        // Totals and the context meter need the session and the model: the controller sends them.
        return;
      case 'context':
        this.rules = event.rules.map(ruleInfo);
        this.sink.emit('rules', { rules: [...this.rules] });
        return;
      case 'context_trimmed':
        this.sink.emit('contextTrimmed', {
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          droppedMessages: event.droppedMessages,
          shortenedResults: event.shortenedResults,
        });
        return;
      case 'tool_output':
        this.live.append(event.toolCallId, event.text);
        return;
      case 'rules_fired': {
        // On the card's message for a tool result; rules on the prompt wait for the answer's message.
        const infos = firedRuleInfos(event.event, event.fired);
        const onPrompt = event.event === 'prompt_submit' || event.event === 'session_start';
        const owner = event.toolCallId !== undefined ? this.callOwner.get(event.toolCallId) : onPrompt ? undefined : this.turnMessageId;
        const message = owner === undefined ? undefined : this.byId.get(owner);
        if (message) this.put(withRules(message, infos));
        else this.pendingRules.push(...infos);
        return;
      }
      case 'rule_problems':
        this.error({ code: 'invalid_config', message: event.problems.join('\n'), retryable: false });
        return;
      case 'mentions': {
        // The message shows its mentions as chips (what they expanded to is in the session log);
        // a chip whose mention was cut, left out or failed says so. The running message is the
        // newest user message that is not queued.
        const runningId = [...this.order].reverse().find((id) => {
          const m = this.byId.get(id);
          return m?.role === 'user' && m.status !== 'queued';
        });
        const running = runningId === undefined ? undefined : this.byId.get(runningId);
        if (running) {
          const noted = withMentionNotes(running, mentionNotesOf(event.outcomes));
          if (noted !== running) this.put(noted);
        }
        return;
      }
      case 'compaction':
        this.applyCompaction(event);
        return;
    }
  }

  /**
   * Closes the run's loose ends: a turn still streaming and cards still running become
   * cancelled, or errored with the reason when the run failed.
   */
  finishRun(outcome: { cancelled: boolean; error?: UiError }): void {
    const finalState: ToolCallState = outcome.error && !outcome.cancelled ? 'error' : 'cancelled';
    for (const id of this.touched) {
      const message = this.byId.get(id);
      if (!message) continue;
      let changed = false;
      const parts = message.parts.map((part): UiPart => {
        if (part.type !== 'toolCall' || FINAL_TOOL_STATES.has(part.state)) return part;
        changed = true;
        return { ...part, state: finalState };
      });
      let status = message.status;
      let error = message.error;
      if (status === 'streaming') {
        changed = true;
        status = outcome.cancelled ? 'cancelled' : outcome.error ? 'error' : 'done';
        if (status === 'error' && outcome.error) error = { code: outcome.error.code, message: outcome.error.message };
      }
      if (changed) {
        const next: UiMessage = { ...message, parts, status };
        if (error) next.error = error;
        this.put(next);
      }
    }
    this.resetRun();
  }

  private applyMessage(event: Extract<ProjectEvent, { type: 'message' }>): void {
    const { message } = event;
    if (message.role === 'assistant') {
      const id = this.turnMessageId ?? this.createTurnMessage();
      const current = this.byId.get(id)!;
      const calls: ToolCallPart[] = current.parts.filter((p): p is ToolCallPart => p.type === 'toolCall');
      const content = assistantParts(message.content, () => 'running').filter((p) => {
        if (p.type !== 'toolCall') return true;
        this.announced.set(p.toolCallId, { name: p.name, input: p.input });
        return false;
      });
      this.put({ ...current, parts: [...content, ...calls], status: event.partial ? 'cancelled' : 'done' });
      return;
    }
    if (message.role === 'tool') {
      // Results normally arrived as tool_result events already; show any that did not.
      const orphans: UiPart[] = [];
      for (const part of message.content) {
        if (part.type !== 'tool-result' || this.callOwner.has(part.toolCallId)) continue;
        const text = part.output.type === 'text' || part.output.type === 'error-text' ? part.output.value : JSON.stringify(part.output);
        const { output, truncated } = capToolOutput(text);
        const isError = part.output.type.startsWith('error');
        orphans.push({ type: 'toolResult', toolCallId: part.toolCallId, name: part.toolName, output, isError, truncated });
      }
      if (orphans.length > 0) {
        this.add({ id: this.newId('tool'), role: 'tool', parts: orphans, status: 'done', createdAt: this.now() });
      }
    }
  }

  /** A divider appears when the summary is being written, fills in when it is done, and says why it failed. */
  private applyCompaction(event: Extract<ProjectEvent, { type: 'compaction' }>): void {
    if (event.phase === 'start') {
      this.compactionId = this.newId('tool').replace(/^tool/, 'compaction');
      this.add(compactionUiMessage(this.compactionId, this.now(), { summary: '', compactedMessages: 0, reason: event.reason }, 'streaming'));
      return;
    }
    const id = this.compactionId;
    this.compactionId = undefined;
    const current = id === undefined ? undefined : this.byId.get(id);
    if (event.phase === 'done') {
      const part = { summary: event.summary, compactedMessages: event.compactedMessages, reason: event.reason };
      this.put(compactionUiMessage(current?.id ?? event.id, current?.createdAt ?? this.now(), part, 'done'));
      return;
    }
    // The divider says why in place; a banner only when there is none.
    if (current) this.put({ ...current, status: 'error', error: { code: 'compaction_failed', message: event.error } });
    else this.error({ code: 'internal', message: event.error, retryable: true });
  }

  private showCall(toolCallId: string, name: string, input: unknown, state: ToolCallState): void {
    const messageId = this.turnMessageId ?? this.createTurnMessage();
    const part = toolCallPart(toolCallId, name, input, this.awaiting.has(toolCallId) ? 'awaitingApproval' : state);
    const message = this.byId.get(messageId)!;
    this.byId.set(messageId, { ...message, parts: [...message.parts, part] });
    this.callOwner.set(toolCallId, messageId);
    this.sink.emit('toolUse', {
      messageId,
      toolCallId,
      name: part.name,
      input: part.input,
      summary: part.summary,
      state: part.state,
    });
  }

  private setToolState(toolCallId: string, state: 'awaitingApproval' | 'running'): void {
    if (!this.updateToolPart(toolCallId, (part) => ({ ...part, state }))) return;
    this.sink.emit('toolState', { toolCallId, state });
  }

  private toolPart(toolCallId: string): ToolCallPart | undefined {
    const owner = this.callOwner.get(toolCallId);
    const message = owner === undefined ? undefined : this.byId.get(owner);
    return message?.parts.find((p): p is ToolCallPart => p.type === 'toolCall' && p.toolCallId === toolCallId);
  }

  /** Changes a card in the host's copy only; the caller sends the matching event. */
  private showLiveOutput(toolCallId: string, output: string): void {
    // Kept on the part too, so a view that reloads mid-command shows what came so far.
    if (!this.updateToolPart(toolCallId, (part) => (part.state === 'running' ? { ...part, liveOutput: output } : part))) return;
    this.sink.emit('toolOutput', { toolCallId, output });
  }

  private updateToolPart(toolCallId: string, change: (part: ToolCallPart) => ToolCallPart): boolean {
    const owner = this.callOwner.get(toolCallId);
    const message = owner === undefined ? undefined : this.byId.get(owner);
    if (!message || owner === undefined) return false;
    let found = false;
    const parts = message.parts.map((p) => {
      if (p.type !== 'toolCall' || p.toolCallId !== toolCallId) return p;
      found = true;
      return change(p);
    });
    if (found) this.byId.set(owner, { ...message, parts });
    return found;
  }

  private ensureTurnMessage(): string {
    return this.turnMessageId ?? this.createTurnMessage();
  }

  private createTurnMessage(): string {
    const id = this.newId('assistant');
    let message: UiMessage = { id, role: 'assistant', parts: [], status: 'streaming', createdAt: this.now() };
    if (this.runModel) message.model = this.runModel;
    if (this.pendingRules.length > 0) message = withRules(message, this.pendingRules.splice(0));
    this.turnMessageId = id;
    this.touched.add(id);
    this.add(message);
    return id;
  }

  /** Replaces a message in place and sends it. */
  private put(message: UiMessage): void {
    if (!this.byId.has(message.id)) {
      this.add(message);
      return;
    }
    this.byId.set(message.id, message);
    this.sink.emit('message', { message });
  }

  private resetRun(): void {
    this.live.clear();
    this.turnMessageId = undefined;
    this.runModel = undefined;
    this.callOwner.clear();
    this.announced.clear();
    this.rejected.clear();
    this.touched.clear();
    this.awaiting.clear();
    this.pendingRules = [];
  }
}

/** The message with the journal entry on the card of the call that made it. */
function withChange(message: UiMessage, change: JournalEntry): UiMessage {
  const applied: AppliedChange = {
    id: change.id,
    displayPath: change.displayPath,
    kind: change.kind,
    undoable: change.undoable,
    reverted: change.reverted,
  };
  return {
    ...message,
    parts: message.parts.map((p) => (p.type === 'toolCall' && p.toolCallId === change.toolCallId ? { ...p, change: applied } : p)),
  };
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
  return info;
}
