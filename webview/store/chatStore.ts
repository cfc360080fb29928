import * as l10n from '@vscode/l10n';
import type { EventData } from '../../src/protocol/catalogue';
import type { ContextTrimmed, WorkspaceProjects, RuleInEffectInfo, RunState, Snapshot, UiError } from '../../src/protocol/sessionState';
import type { ToolApprovalRequest, ToolApprovalResult } from '../../src/protocol/toolApproval';
import { appendDelta } from '../../src/protocol/uiMessage';
import type { ToolCallPart, UiMessage, UiPart } from '../../src/protocol/uiMessage';
import { ApprovalWaiters } from './approvalWaiters';
import { initialMeta } from './chatMeta';
import type { ChatMeta, ComposerPrefill, Panel, RetryNote } from './chatMeta';
import { ListenerSet } from './listenerSet';
import { insertionIndex } from '../../src/protocol/messageOrder';

const MAX_SHOWN_ERRORS = 5;

/**
 * The conversation as the webview shows it. Three kinds of subscription keep renders
 * small: one per message (a delta re-renders only the streaming message), one for the
 * ordered ids (the list re-renders only when messages come or go), one for the rest.
 */
export class ChatStore {
  private meta: ChatMeta = initialMeta();
  private ids: readonly string[] = [];
  private readonly messages = new Map<string, UiMessage>();
  /** toolCallId → id of the message holding that toolCall part. */
  private readonly toolOwners = new Map<string, string>();
  private readonly waiters = new ApprovalWaiters();
  private readonly metaListeners = new ListenerSet();
  private readonly idListeners = new ListenerSet();
  private readonly messageListeners = new Map<string, ListenerSet>();
  private nextErrorId = 1;
  private nextPrefill = 1;

  // ---- reading (stable references, for useSyncExternalStore) ----

  readonly getMeta = (): ChatMeta => this.meta;
  readonly getIds = (): readonly string[] => this.ids;
  readonly getMessage = (id: string): UiMessage | undefined => this.messages.get(id);
  readonly subscribeMeta = this.metaListeners.subscribe;
  readonly subscribeIds = this.idListeners.subscribe;

  subscribeMessage(id: string, listener: () => void): () => void {
    let set = this.messageListeners.get(id);
    if (!set) {
      set = new ListenerSet();
      this.messageListeners.set(id, set);
    }
    const unsubscribe = set.subscribe(listener);
    return () => {
      unsubscribe();
      if (set.size === 0 && this.messageListeners.get(id) === set) this.messageListeners.delete(id);
    };
  }

  /** The newest user message, for "Retry". */
  lastUserMessage(): UiMessage | undefined {
    for (let i = this.ids.length - 1; i >= 0; i--) {
      const message = this.messages.get(this.ids[i] ?? '');
      if (message?.role === 'user') return message;
    }
    return undefined;
  }

  // ---- host events ----

  /** Replaces the whole conversation; answers waiting for re-sent approval requests survive. */
  replace(snapshot: Snapshot): void {
    const before = new Map(this.messages);
    this.messages.clear();
    this.toolOwners.clear();
    for (const message of snapshot.messages) {
      this.messages.set(message.id, message);
      this.indexToolCalls(message);
    }
    this.ids = snapshot.messages.map((message) => message.id);
    const listed = new Set(snapshot.pendingApprovals.map((request) => request.id));
    const stillOpen = this.meta.approvals.filter((request) => !listed.has(request.id) && this.waiters.isOpen(request.id));
    this.meta = {
      ...this.meta,
      ready: true,
      session: snapshot.session,
      run: snapshot.state,
      usage: snapshot.usage,
      todos: snapshot.todos,
      config: snapshot.config,
      approvals: [...snapshot.pendingApprovals, ...stillOpen],
      errors: [],
      retry: null,
      rules: snapshot.rules ?? [],
      trimmed: null,
      workspaceProjects: snapshot.workspaceProjects ?? this.meta.workspaceProjects,
      plan: snapshot.plan ?? null,
      earlierMessages: snapshot.earlierMessages ?? 0,
    };
    this.idListeners.notify();
    this.metaListeners.notify();
    for (const [id, set] of this.messageListeners) {
      if (before.get(id) !== this.messages.get(id)) set.notify();
    }
  }

  /** Adds a message, or replaces the one with the same id. */
  upsertMessage(message: UiMessage): void {
    const isNew = !this.messages.has(message.id);
    this.messages.set(message.id, message);
    this.indexToolCalls(message);
    if (isNew) {
      const at = insertionIndex(this.ids.length, (i) => this.messages.get(this.ids[i]!)?.status, message.status);
      this.ids = [...this.ids.slice(0, at), message.id, ...this.ids.slice(at)];
      this.idListeners.notify();
    }
    this.messageListeners.get(message.id)?.notify();
  }

  /** The bus's `textDelta`: extends the streaming message only (its own subscribers are the only ones told). */
  textDelta(messageId: string, delta: string): void {
    this.extend(messageId, 'text', delta);
  }

  /** The bus's `reasoningDelta`, as `textDelta`. */
  reasoningDelta(messageId: string, delta: string): void {
    this.extend(messageId, 'reasoning', delta);
  }

  private extend(messageId: string, type: 'text' | 'reasoning', delta: string): void {
    const message = this.messages.get(messageId) ?? this.startAssistantMessage(messageId);
    this.putMessage({ ...message, parts: appendDelta(message.parts, type, delta) });
    this.clearRetry();
  }

  addToolUse(event: EventData<'toolUse'>): void {
    const message = this.messages.get(event.messageId) ?? this.startAssistantMessage(event.messageId);
    const part: ToolCallPart = {
      type: 'toolCall',
      toolCallId: event.toolCallId,
      name: event.name,
      input: event.input,
      display: event.display,
      state: event.state,
    };
    const exists = message.parts.some((p) => p.type === 'toolCall' && p.toolCallId === event.toolCallId);
    const parts = exists ? replaceToolCall(message.parts, event.toolCallId, () => part) : [...message.parts, part];
    this.toolOwners.set(event.toolCallId, message.id);
    this.putMessage({ ...message, parts });
    this.clearRetry();
  }

  setToolState(event: EventData<'toolState'>): void {
    this.updateToolCall(event.toolCallId, (part) => ({ ...part, state: event.state }));
  }

  /** A running tool's output so far (its tail); the result replaces it. */
  setToolOutput(event: EventData<'toolOutput'>): void {
    this.updateToolCall(event.toolCallId, (part) => (part.state === 'running' ? { ...part, liveOutput: event.output } : part));
  }

  /** A result whose call is not in view is shown as a tool message of its own. */
  setToolResult(event: EventData<'toolResult'>): void {
    const result = { output: event.output, isError: event.isError, truncated: event.truncated };
    const updated = this.updateToolCall(event.toolCallId, ({ liveOutput: _live, ...part }) => ({ ...part, state: event.state, result }));
    if (updated) return;
    this.upsertMessage({
      id: `tool-result-${event.toolCallId}`,
      role: 'tool',
      parts: [{ type: 'toolResult', toolCallId: event.toolCallId, name: event.name, ...result }],
      status: event.state === 'done' ? 'done' : 'error',
      createdAt: Date.now(),
    });
  }

  setRunState(run: RunState): void {
    // A new run starts without the last one's trimming note.
    const starting = run.running && !this.meta.run.running;
    this.setMeta({ run, retry: run.running ? this.meta.retry : null, trimmed: starting ? null : this.meta.trimmed });
  }

  setRules(rules: readonly RuleInEffectInfo[]): void {
    this.setMeta({ rules });
  }

  setWorkspaceProjects(projects: WorkspaceProjects): void {
    this.setMeta({ workspaceProjects: projects });
  }

  setTrimmed(trimmed: ContextTrimmed): void {
    this.setMeta({ trimmed });
  }

  setUsage(usage: EventData<'usage'>): void {
    this.setMeta({ usage });
  }

  setRetry(retry: RetryNote | null): void {
    this.setMeta({ retry });
  }

  setMcp(mcp: EventData<'mcp.status'>): void {
    this.setMeta({ mcp });
  }

  setTodos(todos: EventData<'todos'>['items']): void {
    this.setMeta({ todos });
  }

  setSessionActivity({ sessions }: EventData<'sessions.activity'>): void {
    this.setMeta({ sessionActivity: sessions });
  }

  setPlan({ plan }: EventData<'plan'>): void {
    this.setMeta({ plan });
  }

  setSession(session: EventData<'session'>): void {
    this.setMeta({ session });
  }

  setConfig(config: EventData<'config'>): void {
    this.setMeta({ config });
  }

  addError(error: UiError): void {
    const errors = [...this.meta.errors, { id: this.nextErrorId++, error }].slice(-MAX_SHOWN_ERRORS);
    this.setMeta({ errors });
  }

  dismissError(id: number): void {
    this.setMeta({ errors: this.meta.errors.filter((shown) => shown.id !== id) });
  }

  prefillComposer(prefill: Omit<ComposerPrefill, 'seq'>): void {
    this.setMeta({ prefill: { ...prefill, seq: this.nextPrefill++ }, panel: 'chat' });
  }

  showPanel(panel: Panel): void {
    this.setMeta({ panel });
  }

  // ---- approvals ----

  /**
   * Shows the card and resolves with the person's answer. When the host withdraws the
   * request (signal aborts) the card goes away and the promise rejects.
   */
  openApproval(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalResult> {
    const others = this.meta.approvals.filter((open) => open.id !== request.id);
    const answer = this.waiters.wait(request.id);
    if (this.waiters.isOpen(request.id)) this.setMeta({ approvals: [...others, request] });
    return new Promise<ToolApprovalResult>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters.forget(request.id);
        this.removeApproval(request.id);
        reject(signal.reason instanceof Error ? signal.reason : new Error(l10n.t('The approval request was withdrawn')));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      answer.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
      );
    });
  }

  /** The person decided: the card goes away and the host's request is answered. */
  answerApproval(id: string, result: ToolApprovalResult): void {
    this.waiters.answer(id, result);
    this.removeApproval(id);
  }

  // ---- internals ----

  private setMeta(patch: Partial<ChatMeta>): void {
    this.meta = { ...this.meta, ...patch };
    this.metaListeners.notify();
  }

  private clearRetry(): void {
    if (this.meta.retry) this.setMeta({ retry: null });
  }

  private removeApproval(id: string): void {
    if (!this.meta.approvals.some((request) => request.id === id)) return;
    this.setMeta({ approvals: this.meta.approvals.filter((request) => request.id !== id) });
  }

  /** Replaces an existing message and tells only its subscribers. */
  private putMessage(message: UiMessage): void {
    this.messages.set(message.id, message);
    this.messageListeners.get(message.id)?.notify();
  }

  /** A delta for a message the host has not announced yet: show it rather than drop text. */
  private startAssistantMessage(id: string): UiMessage {
    const message: UiMessage = { id, role: 'assistant', parts: [], status: 'streaming', createdAt: Date.now() };
    this.upsertMessage(message);
    return message;
  }

  private indexToolCalls(message: UiMessage): void {
    for (const part of message.parts) {
      if (part.type === 'toolCall') this.toolOwners.set(part.toolCallId, message.id);
    }
  }

  private updateToolCall(toolCallId: string, change: (part: ToolCallPart) => ToolCallPart): boolean {
    const owner = this.toolOwners.get(toolCallId);
    const message = owner === undefined ? undefined : this.messages.get(owner);
    if (!message) return false;
    this.putMessage({ ...message, parts: replaceToolCall(message.parts, toolCallId, change) });
    return true;
  }
}

function replaceToolCall(
  parts: readonly UiPart[],
  toolCallId: string,
  change: (part: ToolCallPart) => ToolCallPart,
): UiPart[] {
  return parts.map((part) => (part.type === 'toolCall' && part.toolCallId === toolCallId ? change(part) : part));
}
