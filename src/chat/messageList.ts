import { insertionIndex } from '../protocol/messageOrder';
import type { UiMessage } from '../protocol/uiMessage';
import type { EventSink } from './conversationState';

/**
 * The conversation's messages in view order. Messages waiting in the queue stay at the end;
 * anything new goes before them, so the order is the order in which things will have happened.
 */
export class MessageList {
  private order: string[] = [];
  private readonly byId = new Map<string, UiMessage>();

  constructor(private readonly sink: EventSink) {}

  all(): UiMessage[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  ids(): readonly string[] {
    return this.order;
  }

  get(id: string): UiMessage | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Changes the host's copy only: the caller sends the event that says what changed, or a snapshot. */
  set(id: string, message: UiMessage): void {
    this.byId.set(id, message);
  }

  /** The whole list is replaced (new or resumed session); the caller sends a snapshot. */
  replace(messages: readonly UiMessage[]): void {
    this.order = messages.map((m) => m.id);
    this.byId.clear();
    for (const m of messages) this.byId.set(m.id, m);
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

  /** Replaces a message in place and sends it. */
  put(message: UiMessage): void {
    if (!this.byId.has(message.id)) {
      this.add(message);
      return;
    }
    this.byId.set(message.id, message);
    this.sink.emit('message', { message });
  }

  /** Moves a queued message to just before the remaining queue (it is about to run). */
  dequeue(id: string): void {
    const message = this.byId.get(id);
    if (!message) return;
    this.order = this.order.filter((m) => m !== id);
    this.byId.delete(id);
    this.add({ ...message, status: 'done' });
  }
}
