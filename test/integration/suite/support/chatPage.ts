/// <reference types="mocha" />
// The test's side of a chat page: the real host side (provider, bridge, controller) behind
// a headless view, and on this end a webview bus that mirrors what the UI would hold,
// built only from the snapshot and the events after it.
import { createWebviewBus } from '../../../../src/protocol/buses';
import type { WebviewBus } from '../../../../src/protocol/buses';
import type { EventData } from '../../../../src/protocol/catalogue';
import type { LogFn } from '../../../../src/protocol/log';
import type { ConfigSummary, RunState, Snapshot, UiError } from '../../../../src/protocol/sessionState';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../../src/protocol/toolApproval';
import type { UiMessage, UiPart } from '../../../../src/protocol/uiMessage';
import { PROTOCOL_VERSION } from '../../../../src/protocol/version';
import type { HeadlessChatPage, KeelTestApi } from '../../../../src/vscode/testHooks';
import { until } from './waiting';
import { CONVERSATION_EVENTS } from '../../../../src/conversation/conversationEvent';
import type { ConversationEvent } from '../../../../src/conversation/conversationEvent';
import { ConversationMirror } from '../../../../src/conversation/conversationMirror';

type ToolCallPart = Extract<UiPart, { type: 'toolCall' }>;

/** An approval the host asked for; the test answers it. */
export interface AskedApproval {
  request: ToolApprovalRequest;
  answer(result: ToolApprovalAnswer): void;
}

export class ChatPage {
  readonly bus: WebviewBus;
  readonly logs: string[] = [];
  snapshots: Snapshot[] = [];
  /** The conversation, folded by the same mirror the page uses. */
  private readonly mirror = new ConversationMirror();
  get messages(): UiMessage[] {
    return this.mirror.messages();
  }
  config: ConfigSummary | undefined;
  run: RunState | undefined;
  errors: UiError[] = [];
  /** What the window's conversations do, by session id, as the host last said. */
  get activity(): Record<string, string> {
    return (this.named('sessions.activity').at(-1) as { sessions: Record<string, string> } | undefined)?.sessions ?? {};
  }
  /** Every event in arrival order, by name. */
  readonly events: { name: string; data: unknown }[] = [];
  readonly approvals: AskedApproval[] = [];
  private approvalsTaken = 0;

  private constructor(readonly page: HeadlessChatPage) {
    const log: LogFn = (level, message) => this.logs.push(`${level}: ${message}`);
    this.bus = createWebviewBus(page.transport, log);
    this.listen();
    this.bus.emit('ready', { protocolVersion: PROTOCOL_VERSION });
  }

  /** Opens a page on the real provider and waits for its first snapshot. */
  static async open(api: KeelTestApi): Promise<ChatPage> {
    const page = new ChatPage(api.testHooks.openChatPage());
    await page.waitFor(() => page.snapshots.length > 0, 'the first snapshot');
    return page;
  }

  /** The same view loads a new page (a reload): a fresh bus says ready and gets a snapshot. */
  async reload(): Promise<ChatPage> {
    this.bus.dispose();
    const next = new ChatPage(this.page);
    await next.waitFor(() => next.snapshots.length > 0, 'the snapshot after the reload');
    return next;
  }

  close(): void {
    this.bus.dispose();
    this.page.dispose();
  }

  waitFor(check: () => boolean, what: string, timeoutMs?: number): Promise<void> {
    return until(check, what, timeoutMs);
  }

  named<N extends string>(name: N): unknown[] {
    return this.events.filter((e) => e.name === name).map((e) => e.data);
  }

  last(role: UiMessage['role']): UiMessage | undefined {
    return this.messages.filter((m) => m.role === role).at(-1);
  }

  text(message: UiMessage | undefined): string {
    return (message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  }

  toolCalls(): ToolCallPart[] {
    return this.messages.flatMap((m) => m.parts.filter((p): p is ToolCallPart => p.type === 'toolCall'));
  }

  /** Sends as the composer does; rejects with the host's BusError when it refuses. */
  send(text: string): Promise<{ messageId: string; queued: boolean }> {
    return this.bus.request('session.send', { text });
  }

  /** Sends and waits until the run it started has ended (running went true, then false). */
  async sendAndSettle(text: string, timeoutMs?: number): Promise<{ messageId: string }> {
    const from = this.events.length;
    const sent = await this.send(text);
    await this.runEnded(from, timeoutMs);
    return sent;
  }

  /** Resolves once a run that started after event index `from` has ended. */
  runEnded(from: number, timeoutMs?: number): Promise<void> {
    return this.waitFor(
      () => {
        const states = this.events.slice(from).filter((e) => e.name === 'state').map((e) => e.data as RunState);
        const started = states.findIndex((s) => s.running);
        return started >= 0 && states.slice(started + 1).some((s) => !s.running);
      },
      'the run to end',
      timeoutMs,
    );
  }

  /** A new, empty conversation (what "New Chat" does); approvals asked before it are not handed out any more. */
  async newChat(): Promise<void> {
    this.approvalsTaken = this.approvals.length;
    const from = this.snapshots.length;
    await this.bus.request('session.new', {});
    await this.waitFor(() => this.snapshots.length > from, 'the snapshot of the new chat');
  }

  /** The next approval request this page has not handed out yet (waits for it). */
  async nextApproval(): Promise<AskedApproval> {
    const index = this.approvalsTaken;
    await this.waitFor(() => this.approvals.length > index, `approval request #${index + 1}`);
    this.approvalsTaken = index + 1;
    return this.approvals[index]!;
  }

  private listen(): void {
    const { bus } = this;
    bus.on('snapshot', (s) => {
      this.snapshots.push(s);
      this.mirror.reset(structuredClone(s.messages));
      this.config = s.config;
      this.run = s.state;
      this.record('snapshot', s);
    });
    for (const name of CONVERSATION_EVENTS) {
      bus.on(name, (data: EventData<typeof name>) => {
        this.mirror.apply({ type: name, data } as ConversationEvent);
        this.record(name, name === 'message' ? (data as EventData<'message'>).message : data);
      });
    }
    bus.on('state', (s) => {
      this.run = s;
      this.record('state', s);
    });
    bus.on('config', (c) => {
      this.config = c;
      this.record('config', c);
    });
    bus.on('error', (e) => {
      this.errors.push(e);
      this.record('error', e);
    });
    for (const name of ['usage', 'retry', 'todos', 'session', 'composer', 'view.show', 'mcp.status', 'plan', 'contextTrimmed', 'sessions.activity'] as const) {
      bus.on(name, (data: EventData<typeof name>) => this.record(name, data));
    }
    bus.handle('toolApproval', (request, { signal }) =>
      new Promise<ToolApprovalAnswer>((resolve, reject) => {
        this.approvals.push({ request, answer: resolve });
        signal.addEventListener('abort', () => reject(new Error('the host withdrew the approval')), { once: true });
      }),
    );
  }

  private record(name: string, data: unknown): void {
    this.events.push({ name, data });
  }
}
