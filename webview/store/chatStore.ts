import * as l10n from '@vscode/l10n';
import type { EventData } from '../../src/protocol/catalogue';
import type { ContextTrimmed, WorkspaceProjects, RuleInEffectInfo, RunState, Snapshot, UiError } from '../../src/protocol/sessionState';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../src/protocol/toolApproval';
import type { UiMessage } from '../../src/protocol/uiMessage';
import type { ConversationEvent } from '../../src/conversation/conversationEvent';
import { ConversationMirror } from '../../src/conversation/conversationMirror';
import { ApprovalWaiters } from './approvalWaiters';
import { initialMeta } from './chatMeta';
import type { ChatMeta, ComposerPrefill, Panel, RetryNote } from './chatMeta';
import { ListenerSet } from './listenerSet';

const MAX_SHOWN_ERRORS = 5;

/**
 * The conversation as the webview shows it. Three kinds of subscription keep renders
 * small: one per message (a delta re-renders only the streaming message), one for the
 * ordered ids (the list re-renders only when messages come or go), one for the rest.
 */
export class ChatStore {
  private meta: ChatMeta = initialMeta();
  /** The messages, changed only by the shared fold (src/conversation/foldEvent.ts). */
  private readonly mirror = new ConversationMirror();
  private readonly waiters = new ApprovalWaiters();
  private readonly metaListeners = new ListenerSet();
  private readonly idListeners = new ListenerSet();
  private readonly messageListeners = new Map<string, ListenerSet>();
  private nextErrorId = 1;
  private nextPrefill = 1;

  // ---- reading (stable references, for useSyncExternalStore) ----

  readonly getMeta = (): ChatMeta => this.meta;
  readonly getIds = (): readonly string[] => this.mirror.conversation.ids;
  readonly getMessage = (id: string): UiMessage | undefined => this.mirror.get(id);
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
    const ids = this.getIds();
    for (let i = ids.length - 1; i >= 0; i--) {
      const message = this.mirror.get(ids[i] ?? '');
      if (message?.role === 'user') return message;
    }
    return undefined;
  }

  // ---- host events ----

  /** Replaces the whole conversation; answers waiting for re-sent approval requests survive. */
  replace(snapshot: Snapshot): void {
    const before = this.mirror.conversation.messages;
    this.mirror.reset(snapshot.messages);
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
      if (before.get(id) !== this.mirror.get(id)) set.notify();
    }
  }

  /** One change to the conversation from the host, folded as the host folded it; only the messages it changed are told. */
  apply(event: ConversationEvent): void {
    if (event.type === 'textDelta' || event.type === 'reasoningDelta' || event.type === 'toolUse') {
      if (!this.mirror.get(event.data.messageId)) this.startAssistantMessage(event.data.messageId);
    }
    if (event.type === 'toolResult' && !this.mirror.conversation.owners.has(event.data.toolCallId)) {
      this.showOrphanResult(event.data);
      return;
    }
    const { idsChanged, changed } = this.mirror.apply(event);
    if (idsChanged) this.idListeners.notify();
    for (const id of changed) this.messageListeners.get(id)?.notify();
    if (event.type === 'textDelta' || event.type === 'reasoningDelta' || event.type === 'toolUse') this.clearRetry();
  }

  /** Adds a message, or replaces the one with the same id. */
  upsertMessage(message: UiMessage): void {
    this.apply({ type: 'message', data: { message } });
  }

  /** The bus's `textDelta`: extends the streaming message only (its own subscribers are the only ones told). */
  textDelta(messageId: string, delta: string): void {
    this.apply({ type: 'textDelta', data: { messageId, delta } });
  }

  /** The bus's `reasoningDelta`, as `textDelta`. */
  reasoningDelta(messageId: string, delta: string): void {
    this.apply({ type: 'reasoningDelta', data: { messageId, delta } });
  }

  addToolUse(event: EventData<'toolUse'>): void {
    this.apply({ type: 'toolUse', data: event });
  }

  setToolState(event: EventData<'toolState'>): void {
    this.apply({ type: 'toolState', data: event });
  }

  /** A running tool's output so far (its tail); the result replaces it. */
  setToolOutput(event: EventData<'toolOutput'>): void {
    this.apply({ type: 'toolOutput', data: event });
  }

  /** A result whose call is not in view is shown as a tool message of its own. */
  setToolResult(event: EventData<'toolResult'>): void {
    this.apply({ type: 'toolResult', data: event });
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
  openApproval(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalAnswer> {
    const others = this.meta.approvals.filter((open) => open.id !== request.id);
    const answer = this.waiters.wait(request.id);
    if (this.waiters.isOpen(request.id)) this.setMeta({ approvals: [...others, request] });
    return new Promise<ToolApprovalAnswer>((resolve, reject) => {
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
  answerApproval(id: string, result: ToolApprovalAnswer): void {
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

  /** A delta for a message the host has not announced yet: show it rather than drop text. */
  private startAssistantMessage(id: string): void {
    this.upsertMessage({ id, role: 'assistant', parts: [], status: 'streaming', createdAt: Date.now() });
  }

  private showOrphanResult(event: EventData<'toolResult'>): void {
    this.upsertMessage({
      id: `tool-result-${event.toolCallId}`,
      role: 'tool',
      parts: [{ type: 'toolResult', toolCallId: event.toolCallId, name: event.name, output: event.output, isError: event.isError, truncated: event.truncated }],
      status: event.state === 'done' ? 'done' : 'error',
      createdAt: Date.now(),
    });
  }
}
