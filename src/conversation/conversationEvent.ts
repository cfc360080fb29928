import type { z } from 'zod';
import type { hostEvents } from '../protocol/hostEvents';
import type { UiMessage } from '../protocol/uiMessage';

/** The bus events that change the conversation's messages; every holder of the conversation folds them. */
export const CONVERSATION_EVENTS = [
  'message',
  'messagePatch',
  'partPatch',
  'textDelta',
  'reasoningDelta',
  'toolUse',
  'toolState',
  'toolOutput',
  'toolResult',
  'toolPatch',
  'subagentStep',
  'mcpRequest',
] as const;

export type ConversationEventName = (typeof CONVERSATION_EVENTS)[number];

export type ConversationEventData<K extends ConversationEventName> = z.infer<(typeof hostEvents)[K]>;

/** One change to the conversation, as the host sends it. */
export type ConversationEvent = { [K in ConversationEventName]: { type: K; data: ConversationEventData<K> } }[ConversationEventName];

/**
 * The conversation as shown: the messages in view order, by id, and which message holds each
 * tool call's card. Never changed in place: foldEvent returns a new one, sharing what did not change.
 */
export interface Conversation {
  readonly ids: readonly string[];
  readonly messages: ReadonlyMap<string, UiMessage>;
  /** toolCallId → id of the message holding its card. */
  readonly owners: ReadonlyMap<string, string>;
}

export function isConversationEvent(name: string): name is ConversationEventName {
  return (CONVERSATION_EVENTS as readonly string[]).includes(name);
}
