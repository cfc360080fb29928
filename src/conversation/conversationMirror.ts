import type { UiMessage } from '../protocol/uiMessage';
import type { Conversation, ConversationEvent } from './conversationEvent';
import { conversationOf, EMPTY_CONVERSATION, foldEvent, messagesOf } from './foldEvent';

/** What one fold changed: whether the order did, and which messages are new objects. */
export interface MirrorChange {
  idsChanged: boolean;
  changed: string[];
}

/**
 * A keyed store of the conversation that changes only by foldEvent: the host keeps its
 * snapshot in one, the page mirrors what the host sends in one, and so do the tests.
 */
export class ConversationMirror {
  private state: Conversation = EMPTY_CONVERSATION;

  get conversation(): Conversation {
    return this.state;
  }

  messages(): UiMessage[] {
    return messagesOf(this.state);
  }

  get(id: string): UiMessage | undefined {
    return this.state.messages.get(id);
  }

  /** The whole conversation replaced (a snapshot, a new or resumed session). */
  reset(messages: readonly UiMessage[]): void {
    this.state = conversationOf(messages);
  }

  apply(event: ConversationEvent): MirrorChange {
    const before = this.state;
    const after = foldEvent(before, event);
    this.state = after;
    if (after === before) return { idsChanged: false, changed: [] };
    const changed = after.ids.filter((id) => before.messages.get(id) !== after.messages.get(id));
    return { idsChanged: after.ids !== before.ids, changed };
  }
}
