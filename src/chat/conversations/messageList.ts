import type { ConversationEvent } from '../../conversation/conversationEvent';
import { ConversationMirror } from '../../conversation/conversationMirror';
import { toolCallOf } from '../../conversation/foldEvent';
import type { ToolCallPart, UiMessage } from '../../protocol/uiMessage';
import type { EventSink } from './eventSink';

/**
 * The host's copy of the conversation's messages in view order. It changes only by the shared
 * fold (src/conversation/foldEvent.ts): each change is folded here and sent as the same event,
 * so the view, folding it too, holds what the host holds.
 */
export class MessageList {
  private readonly mirror = new ConversationMirror();

  constructor(private readonly sink: EventSink) {}

  all(): UiMessage[] {
    return this.mirror.messages();
  }

  ids(): readonly string[] {
    return this.mirror.conversation.ids;
  }

  get(id: string): UiMessage | undefined {
    return this.mirror.get(id);
  }

  has(id: string): boolean {
    return this.mirror.get(id) !== undefined;
  }

  toolCall(toolCallId: string): ToolCallPart | undefined {
    return toolCallOf(this.mirror.conversation, toolCallId);
  }

  /** The message holding a tool call's card. */
  ownerOf(toolCallId: string): string | undefined {
    return this.mirror.conversation.owners.get(toolCallId);
  }

  /** The whole list is replaced (new or resumed session); the caller sends a snapshot. */
  replace(messages: readonly UiMessage[]): void {
    this.mirror.reset(messages);
  }

  /** Folds the change into the host's copy and sends it. */
  emit(event: ConversationEvent): void {
    this.mirror.apply(event);
    (this.sink.emit as (name: string, data: unknown) => void)(event.type, event.data);
  }

  /** Folds the change into the host's copy only (a resumed conversation; the caller sends a snapshot). */
  fold(event: ConversationEvent): void {
    this.mirror.apply(event);
  }

  /** Adds a message (queued ones go last, others before the queue), or replaces the one with its id, and sends it. */
  add(message: UiMessage): void {
    this.emit({ type: 'message', data: { message } });
  }

  /** Moves a queued message to just before the remaining queue (it is about to run). */
  dequeue(id: string): void {
    const message = this.get(id);
    if (message) this.add({ ...message, status: 'done' });
  }
}
