import { mentionNotesOf } from '../../core/mentions';
import type { ProjectEvent } from '../../core/projectTypes';
import type { ToolPresentation } from '../../core/tools';
import { capToolOutput } from '../../protocol/limits';
import type { UiError } from '../../protocol/sessionState';
import type { MessageUsage } from '../../protocol/messageUsage';
import type { FiredRuleInfo, ToolCallPart, ToolCallState, UiMessage, UiPart } from '../../protocol/uiMessage';
import { appliedChange } from '../parts/appliedChange';
import type { McpAppBook } from '../parts/mcpAppBook';
import { commandFilesOf, commandFilesPatch } from '../parts/commandFiles';
import type { EventSink } from './eventSink';
import { firedRuleInfos, withRules } from '../parts/firedRules';
import { LiveToolOutput } from './liveToolOutput';
import type { MessageList } from './messageList';
import { withMentionNotes } from '../parts/mentionNotes';
import { subagentStepView } from '../parts/subagentSteps';
import type { SubagentCallLooks } from '../parts/subagentSteps';
import { assistantParts, compactionUiMessage, toolCallPart } from './uiMessages';

const FINAL_TOOL_STATES: ReadonlySet<ToolCallState> = new Set(['done', 'error', 'rejected', 'cancelled']);

/** The run's events the projection does not place itself. */
export type ProjectedEvent = Exclude<ProjectEvent, { type: 'context' | 'usage' }>;

/**
 * The run in progress, projected onto the message list: the streaming turn, its tool cards
 * and their states, rules and mentions on the right message. Each change goes out as the one
 * small event that describes it.
 */
export class RunProjection {
  private turnMessageId: string | undefined;
  /** The log id of the turn's answer, from core, so live and resumed conversations share ids. */
  private nextTurnId: string | undefined;
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
  /** Usage of an answer whose message is not in view yet (it streamed nothing so far). */
  private readonly pendingUsage = new Map<string, MessageUsage>();
  /** Subagents' calls, for the steps their results update. */
  private readonly subagentCalls: SubagentCallLooks = new Map();

  constructor(
    private readonly list: MessageList,
    private readonly sink: EventSink,
    private readonly newId: (kind: 'user' | 'assistant' | 'tool') => string,
    private readonly now: () => number,
    private readonly apps?: McpAppBook,
  ) {}

  begin(model: string): void {
    this.reset();
    this.runModel = model;
  }

  /** What the model calls behind a message used: on the message now, or once it appears. */
  showUsage(messageId: string, usage: MessageUsage): void {
    if (this.list.has(messageId)) this.list.emit({ type: 'messagePatch', data: { messageId, usage } });
    else this.pendingUsage.set(messageId, usage);
  }

  /** A tool call is now waiting for the person. */
  awaitingApproval(toolCallId: string): void {
    this.awaiting.add(toolCallId);
    this.setToolState(toolCallId, 'awaitingApproval');
  }

  apply(event: ProjectedEvent, cancelled: () => boolean): void {
    switch (event.type) {
      case 'turn_start':
        this.turnMessageId = undefined;
        this.nextTurnId = event.messageId;
        return;
      case 'text_delta':
      case 'reasoning_delta': {
        if (event.text === '') return;
        const kind = event.type === 'text_delta' ? 'text' : 'reasoning';
        const messageId = this.turnMessageId ?? this.createTurnMessage();
        this.list.emit({ type: kind === 'text' ? 'textDelta' : 'reasoningDelta', data: { messageId, delta: event.text } });
        return;
      }
      case 'retry': {
        // The loop discards what the failed attempt streamed; so does the view.
        const id = this.turnMessageId;
        const message = id === undefined ? undefined : this.list.get(id);
        if (message && message.parts.length > 0) this.list.emit({ type: 'messagePatch', data: { messageId: message.id, parts: [] } });
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
        this.showCall(event.toolCallId, event.name, event.input, 'running', event.display);
        return;
      case 'subagent': {
        const step = subagentStepView(event.step, this.subagentCalls);
        if (step && this.list.toolCall(event.parentToolCallId)) this.list.emit({ type: 'subagentStep', data: { toolCallId: event.parentToolCallId, agent: event.agent, step } });
        return;
      }
      case 'subagent_usage':
        if (this.list.toolCall(event.parentToolCallId)) this.list.emit({ type: 'toolPatch', data: { toolCallId: event.parentToolCallId, usage: event.usage } });
        return;
      case 'file_change': {
        if (this.list.toolCall(event.change.toolCallId)) {
          this.list.emit({ type: 'toolPatch', data: { toolCallId: event.change.toolCallId, change: appliedChange(event.change) } });
        }
        if (event.warning) this.error({ code: 'internal', message: event.warning, retryable: false });
        return;
      }
      case 'command_changes': {
        const part = this.list.toolCall(event.toolCallId);
        if (part) this.list.emit({ type: 'toolPatch', data: { toolCallId: event.toolCallId, ...commandFilesPatch(part, commandFilesOf(event.changes, () => false)) } });
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
        this.list.emit({ type: 'toolResult', data: { toolCallId: event.toolCallId, name: event.name, state, isError: event.isError, output, truncated } });
        // An MCP App shows on the card of the call, with the text result beside it.
        const app = event.app && state === 'done' ? this.apps?.add(event.toolCallId, event.app, this.list.toolCall(event.toolCallId)?.input) : undefined;
        if (app) this.list.emit({ type: 'toolPatch', data: { toolCallId: event.toolCallId, app: { server: app.server, uri: app.uri } } });
        return;
      }
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
      case 'tool_progress':
        if (this.list.toolCall(event.toolCallId)) this.list.emit({ type: 'toolPatch', data: { toolCallId: event.toolCallId, progress: event.progress } });
        return;
      case 'rules_fired': {
        // On the card's message for a tool result; rules on the prompt wait for the answer's message.
        const infos = firedRuleInfos(event.event, event.fired);
        const onPrompt = event.event === 'prompt_submit' || event.event === 'session_start';
        const owner = event.toolCallId !== undefined ? this.callOwner.get(event.toolCallId) : onPrompt ? undefined : this.turnMessageId;
        const message = owner === undefined ? undefined : this.list.get(owner);
        if (message) this.list.emit({ type: 'messagePatch', data: { messageId: message.id, rules: withRules(message, infos).rules! } });
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
        const runningId = [...this.list.ids()].reverse().find((id) => {
          const m = this.list.get(id);
          return m?.role === 'user' && m.status !== 'queued';
        });
        const running = runningId === undefined ? undefined : this.list.get(runningId);
        if (running) {
          const noted = withMentionNotes(running, mentionNotesOf(event.outcomes));
          noted.parts.forEach((part, index) => {
            if (part !== running.parts[index]) this.list.emit({ type: 'partPatch', data: { messageId: running.id, index, part } });
          });
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
  finish(outcome: { cancelled: boolean; error?: UiError }): void {
    const finalState: ToolCallState = outcome.error && !outcome.cancelled ? 'error' : 'cancelled';
    for (const id of this.touched) {
      const message = this.list.get(id);
      if (!message) continue;
      for (const part of message.parts) {
        if (part.type === 'toolCall' && !FINAL_TOOL_STATES.has(part.state)) this.list.emit({ type: 'toolState', data: { toolCallId: part.toolCallId, state: finalState } });
      }
      if (message.status !== 'streaming') continue;
      const status = outcome.cancelled ? 'cancelled' : outcome.error ? 'error' : 'done';
      const error = status === 'error' && outcome.error ? { code: outcome.error.code, message: outcome.error.message } : undefined;
      this.list.emit({ type: 'messagePatch', data: { messageId: id, status, ...(error ? { error } : {}) } });
    }
    this.reset();
  }

  reset(): void {
    this.live.clear();
    this.turnMessageId = undefined;
    this.nextTurnId = undefined;
    this.runModel = undefined;
    this.callOwner.clear();
    this.announced.clear();
    this.rejected.clear();
    this.touched.clear();
    this.awaiting.clear();
    this.pendingRules = [];
    this.pendingUsage.clear();
  }

  private error(error: UiError): void {
    this.sink.emit('error', error);
  }

  private applyMessage(event: Extract<ProjectEvent, { type: 'message' }>): void {
    const { message } = event;
    if (message.role === 'assistant') {
      const id = this.turnMessageId ?? this.createTurnMessage();
      const current = this.list.get(id)!;
      const calls: ToolCallPart[] = current.parts.filter((p): p is ToolCallPart => p.type === 'toolCall');
      const content = assistantParts(message.content, () => 'running').filter((p) => {
        if (p.type !== 'toolCall') return true;
        this.announced.set(p.toolCallId, { name: p.name, input: p.input });
        return false;
      });
      // MCP request cards shown meanwhile stay (they are not in the log).
      const cards = current.parts.filter((p) => p.type === 'mcpRequest');
      // The streamed parts are sent again only when the final message differs from them.
      const parts = [...content, ...calls, ...cards];
      const same = JSON.stringify(parts) === JSON.stringify(current.parts);
      const status = event.partial ? 'cancelled' : 'done';
      this.list.emit({ type: 'messagePatch', data: { messageId: id, status, ...(same ? {} : { parts }), ...this.recordedAt(current, event.at) } });
      return;
    }
    if (message.role === 'user') {
      // The person's message, shown since it was sent, takes the time the log gave it.
      const shown = this.list.get(event.id);
      const at = shown ? this.recordedAt(shown, event.at) : {};
      if (shown && at.createdAt !== undefined) this.list.emit({ type: 'messagePatch', data: { messageId: shown.id, ...at } });
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
        this.list.add({ id: this.newId('tool'), role: 'tool', parts: orphans, status: 'done', createdAt: event.at ?? this.now() });
      }
    }
  }

  /** A divider appears when the summary is being written, fills in when it is done, and says why it failed. */
  private applyCompaction(event: Extract<ProjectEvent, { type: 'compaction' }>): void {
    if (event.phase === 'start') {
      this.compactionId = event.id ?? this.newId('tool').replace(/^tool/, 'compaction');
      this.list.add(compactionUiMessage(this.compactionId, this.now(), { summary: '', compactedMessages: 0, reason: event.reason }, 'streaming'));
      return;
    }
    const id = this.compactionId;
    this.compactionId = undefined;
    const current = id === undefined ? undefined : this.list.get(id);
    if (event.phase === 'done') {
      const part = { summary: event.summary, compactedMessages: event.compactedMessages, reason: event.reason };
      this.list.add(compactionUiMessage(current?.id ?? event.id, event.at ?? current?.createdAt ?? this.now(), part, 'done'));
      return;
    }
    // The divider says why in place; a banner only when there is none.
    if (current) this.list.emit({ type: 'messagePatch', data: { messageId: current.id, status: 'error', error: { code: 'compaction_failed', message: event.error } } });
    else this.error({ code: 'internal', message: event.error, retryable: true });
  }

  /** The log's time for a message shown before it was recorded, when it differs from the one shown. */
  private recordedAt(shown: UiMessage, at: number | undefined): { createdAt?: number } {
    return at !== undefined && at !== shown.createdAt ? { createdAt: at } : {};
  }

  private showCall(toolCallId: string, name: string, input: unknown, state: ToolCallState, display?: ToolPresentation): void {
    const messageId = this.turnMessageId ?? this.createTurnMessage();
    const part = toolCallPart(toolCallId, name, input, this.awaiting.has(toolCallId) ? 'awaitingApproval' : state, display);
    this.callOwner.set(toolCallId, messageId);
    this.list.emit({ type: 'toolUse', data: { messageId, toolCallId, name: part.name, input: part.input, display: part.display, state: part.state } });
  }

  private setToolState(toolCallId: string, state: 'awaitingApproval' | 'running'): void {
    if (!this.toolPart(toolCallId)) return;
    this.list.emit({ type: 'toolState', data: { toolCallId, state } });
  }

  private toolPart(toolCallId: string): ToolCallPart | undefined {
    return this.callOwner.has(toolCallId) ? this.list.toolCall(toolCallId) : undefined;
  }

  private showLiveOutput(toolCallId: string, output: string): void {
    // Kept on the part too, so a view that reloads mid-command shows what came so far.
    if (this.toolPart(toolCallId)?.state !== 'running') return;
    this.list.emit({ type: 'toolOutput', data: { toolCallId, output } });
  }

  private createTurnMessage(): string {
    const id = this.nextTurnId ?? this.newId('assistant');
    this.nextTurnId = undefined;
    let message: UiMessage = { id, role: 'assistant', parts: [], status: 'streaming', createdAt: this.now() };
    if (this.runModel) message.model = this.runModel;
    if (this.pendingRules.length > 0) message = withRules(message, this.pendingRules.splice(0));
    const usage = this.pendingUsage.get(id);
    if (usage) message.usage = usage;
    this.pendingUsage.delete(id);
    this.turnMessageId = id;
    this.touched.add(id);
    this.list.add(message);
    return id;
  }
}
