/// <reference types="mocha" />
// The test's side of a chat page: the real host side (provider, bridge, controller) behind
// a headless view, and on this end a webview bus that mirrors what the UI would hold,
// built only from the snapshot and the events after it.
import { createWebviewBus } from '../../../../src/protocol/buses';
import type { WebviewBus } from '../../../../src/protocol/buses';
import type { EventData } from '../../../../src/protocol/catalogue';
import type { LogFn } from '../../../../src/protocol/log';
import type { ConfigSummary, RunState, Snapshot, UiError } from '../../../../src/protocol/sessionState';
import type { ToolApprovalRequest, ToolApprovalResult } from '../../../../src/protocol/toolApproval';
import { appendDelta } from '../../../../src/protocol/uiMessage';
import type { UiMessage, UiPart } from '../../../../src/protocol/uiMessage';
import { PROTOCOL_VERSION } from '../../../../src/protocol/version';
import type { HeadlessChatPage, KeelTestApi } from '../../../../src/vscode/testHooks';
import { until } from './waiting';
import { insertionIndex } from '../../../../src/protocol/messageOrder';

type ToolCallPart = Extract<UiPart, { type: 'toolCall' }>;

/** An approval the host asked for; the test answers it. */
export interface AskedApproval {
  request: ToolApprovalRequest;
  answer(result: ToolApprovalResult): void;
}

export class ChatPage {
  readonly bus: WebviewBus;
  readonly logs: string[] = [];
  snapshots: Snapshot[] = [];
  messages: UiMessage[] = [];
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
      this.messages = structuredClone(s.messages);
      this.config = s.config;
      this.run = s.state;
      this.record('snapshot', s);
    });
    bus.on('message', ({ message }) => {
      const at = this.messages.findIndex((m) => m.id === message.id);
      if (at >= 0) this.messages[at] = message;
      else this.insert(message);
      this.record('message', message);
    });
    bus.on('textDelta', (d) => this.delta(d, 'text'));
    bus.on('reasoningDelta', (d) => this.delta(d, 'reasoning'));
    bus.on('toolUse', (d) => {
      this.update(d.messageId, (parts) => [
        ...parts,
        { type: 'toolCall', toolCallId: d.toolCallId, name: d.name, input: d.input, display: d.display, state: d.state },
      ]);
      this.record('toolUse', d);
    });
    bus.on('toolState', (d) => {
      this.updateCall(d.toolCallId, (p) => ({ ...p, state: d.state }));
      this.record('toolState', d);
    });
    bus.on('toolResult', (d) => {
      this.updateCall(d.toolCallId, (p) => ({
        ...p,
        state: d.state,
        result: { output: d.output, isError: d.isError, truncated: d.truncated },
      }));
      this.record('toolResult', d);
    });
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
    for (const name of ['usage', 'retry', 'todos', 'session', 'composer', 'view.show', 'mcp.status', 'plan', 'contextTrimmed', 'toolOutput', 'sessions.activity'] as const) {
      bus.on(name, (data: EventData<typeof name>) => this.record(name, data));
    }
    bus.handle('toolApproval', (request, { signal }) =>
      new Promise<ToolApprovalResult>((resolve, reject) => {
        this.approvals.push({ request, answer: resolve });
        signal.addEventListener('abort', () => reject(new Error('the host withdrew the approval')), { once: true });
      }),
    );
  }

  /** The view's ordering rule: a new message that is not queued goes before the queued ones. */
  private insert(message: UiMessage): void {
    this.messages.splice(insertionIndex(this.messages.length, (i) => this.messages[i]!.status, message.status), 0, message);
  }

  private record(name: string, data: unknown): void {
    this.events.push({ name, data });
  }

  private delta(d: { messageId: string; delta: string }, kind: 'text' | 'reasoning'): void {
    this.update(d.messageId, (parts) => appendDelta(parts, kind, d.delta));
    this.record(kind === 'text' ? 'textDelta' : 'reasoningDelta', d);
  }

  private update(id: string, change: (parts: UiPart[]) => UiPart[]): void {
    const at = this.messages.findIndex((m) => m.id === id);
    if (at < 0) throw new Error(`an event named message ${id}, which the page does not hold`);
    this.messages[at] = { ...this.messages[at]!, parts: change(this.messages[at]!.parts) };
  }

  private updateCall(toolCallId: string, change: (p: ToolCallPart) => UiPart): void {
    for (const [index, m] of this.messages.entries()) {
      const i = m.parts.findIndex((p) => p.type === 'toolCall' && p.toolCallId === toolCallId);
      if (i < 0) continue;
      const parts = [...m.parts];
      parts[i] = change(parts[i] as ToolCallPart);
      this.messages[index] = { ...m, parts };
      return;
    }
    throw new Error(`an event named tool call ${toolCallId}, which the page does not hold`);
  }
}
