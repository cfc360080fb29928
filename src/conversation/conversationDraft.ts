import type { UiMessage } from '../protocol/uiMessage';
import type { Conversation } from './conversationEvent';
import { insertionIndex } from './messageOrder';

/**
 * A conversation being folded: copied on its first change only, so a fold shares the order
 * and the maps it left alone (the page re-renders its list only when the order changed).
 */
export class ConversationDraft {
  private ids: readonly string[];
  private messages: ReadonlyMap<string, UiMessage>;
  private owners: ReadonlyMap<string, string>;
  private ownIds: string[] | undefined;
  private ownMessages: Map<string, UiMessage> | undefined;
  private ownOwners: Map<string, string> | undefined;

  constructor(private readonly base: Conversation) {
    this.ids = base.ids;
    this.messages = base.messages;
    this.owners = base.owners;
  }

  result(): Conversation {
    if (!this.ownIds && !this.ownMessages && !this.ownOwners) return this.base;
    return { ids: this.ids, messages: this.messages, owners: this.owners };
  }

  ownerOf(toolCallId: string): string | undefined {
    return this.owners.get(toolCallId);
  }

  /** A new message goes before the queued ones; a known one is replaced where it is, unless it leaves the queue. */
  upsert(message: UiMessage): void {
    const current = this.messages.get(message.id);
    this.set(message);
    if (current && !(current.status === 'queued' && message.status !== 'queued')) return;
    const ids = this.writableIds();
    if (current) ids.splice(ids.indexOf(message.id), 1);
    const messages = this.messages;
    ids.splice(insertionIndex(ids.length, (i) => messages.get(ids[i]!)?.status, message.status), 0, message.id);
  }

  /** Replaces a message in view with what `update` makes of it (nothing when it is not in view or unchanged). */
  change(id: string, update: (message: UiMessage) => UiMessage): void {
    const message = this.messages.get(id);
    if (!message) return;
    const next = update(message);
    if (next !== message) this.set(next);
  }

  private set(message: UiMessage): void {
    if (!this.ownMessages) this.messages = this.ownMessages = new Map(this.messages);
    this.ownMessages.set(message.id, message);
    for (const part of message.parts) {
      if (part.type !== 'toolCall' || this.owners.get(part.toolCallId) === message.id) continue;
      if (!this.ownOwners) this.owners = this.ownOwners = new Map(this.owners);
      this.ownOwners.set(part.toolCallId, message.id);
    }
  }

  private writableIds(): string[] {
    if (!this.ownIds) this.ids = this.ownIds = [...this.ids];
    return this.ownIds;
  }
}
