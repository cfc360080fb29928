import { expect } from 'vitest';
import { ConversationState } from '../../../src/chat/conversations/conversationState';
import { hostEvents } from '../../../src/protocol/hostEvents';

/** A host conversation whose bus events are checked against their schema and kept in `sent`. */
export function recordingConversation(): { state: ConversationState; sent: { event: string; data: unknown }[] } {
  const sent: { event: string; data: unknown }[] = [];
  const state = new ConversationState(
    {
      emit(event, data) {
        expect(hostEvents[event].safeParse(data).success).toBe(true);
        sent.push({ event, data: structuredClone(data) });
      },
    },
    { now: () => 1, newId: (kind) => `${kind}-1` },
  );
  return { state, sent };
}
