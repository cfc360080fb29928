import type { ToolCallPart, UiMessage, UiPart } from '../protocol/uiMessage';
import { appendDelta } from './appendDelta';
import type { Conversation, ConversationEvent, ConversationEventData } from './conversationEvent';
import { insertionIndex } from './messageOrder';

export const EMPTY_CONVERSATION: Conversation = { ids: [], messages: new Map(), owners: new Map() };

/** A conversation holding these messages, in this order. */
export function conversationOf(messages: readonly UiMessage[]): Conversation {
  const byId = new Map<string, UiMessage>();
  const owners = new Map<string, string>();
  for (const message of messages) {
    byId.set(message.id, message);
    indexCalls(owners, message);
  }
  return { ids: messages.map((m) => m.id), messages: byId, owners };
}

export function messagesOf(conversation: Conversation): UiMessage[] {
  return conversation.ids.map((id) => conversation.messages.get(id)!);
}

/** The card of a tool call, if it is in view. */
export function toolCallOf(conversation: Conversation, toolCallId: string): ToolCallPart | undefined {
  const owner = conversation.owners.get(toolCallId);
  const message = owner === undefined ? undefined : conversation.messages.get(owner);
  return message?.parts.find((p): p is ToolCallPart => p.type === 'toolCall' && p.toolCallId === toolCallId);
}

/**
 * The one reducer of the conversation as shown: the host's snapshot, the page's store and the
 * tests' mirror all fold the same events with it. Pure: the conversation given is not changed.
 * An event for a message or card not in view changes nothing.
 */
export function foldEvent(conversation: Conversation, event: ConversationEvent): Conversation {
  switch (event.type) {
    case 'message':
      return upsert(conversation, event.data.message);
    case 'messagePatch':
      return patchMessage(conversation, event.data);
    case 'partPatch': {
      const { index, part } = event.data;
      return change(conversation, event.data.messageId, (m) =>
        index < m.parts.length ? { ...m, parts: m.parts.map((p, i) => (i === index ? part : p)) } : m,
      );
    }
    case 'textDelta':
    case 'reasoningDelta': {
      const kind = event.type === 'textDelta' ? 'text' : 'reasoning';
      return change(conversation, event.data.messageId, (m) => ({ ...m, parts: appendDelta(m.parts, kind, event.data.delta) }));
    }
    case 'toolUse':
      return addToolUse(conversation, event.data);
    case 'toolState': {
      const { state } = event.data;
      return changeCall(conversation, event.data.toolCallId, (part) => ({ ...part, state }));
    }
    case 'toolOutput': {
      const { output } = event.data;
      return changeCall(conversation, event.data.toolCallId, (part) => (part.state === 'running' ? { ...part, liveOutput: output } : part));
    }
    case 'toolResult': {
      const { state, output, isError, truncated } = event.data;
      return changeCall(conversation, event.data.toolCallId, ({ liveOutput: _live, ...part }) => ({ ...part, state, result: { output, isError, truncated } }));
    }
    case 'toolPatch': {
      const { change: applied, files, moreFiles } = event.data;
      return changeCall(conversation, event.data.toolCallId, (part) => ({
        ...part,
        ...(applied ? { change: applied } : {}),
        ...(files ? { files } : {}),
        ...(moreFiles !== undefined ? { moreFiles } : {}),
      }));
    }
  }
}

/** A new message goes before the queued ones; a known one is replaced where it is, unless it leaves the queue. */
function upsert(conversation: Conversation, message: UiMessage): Conversation {
  const current = conversation.messages.get(message.id);
  const messages = new Map(conversation.messages).set(message.id, message);
  const owners = withCalls(conversation.owners, message);
  if (current && !(current.status === 'queued' && message.status !== 'queued')) {
    return { ids: conversation.ids, messages, owners };
  }
  const others = current ? conversation.ids.filter((id) => id !== message.id) : conversation.ids;
  const at = insertionIndex(others.length, (i) => conversation.messages.get(others[i]!)?.status, message.status);
  return { ids: [...others.slice(0, at), message.id, ...others.slice(at)], messages, owners };
}

function patchMessage(conversation: Conversation, patch: ConversationEventData<'messagePatch'>): Conversation {
  const next = change(conversation, patch.messageId, (m) => {
    const out: UiMessage = { ...m };
    if (patch.status !== undefined) out.status = patch.status;
    if (patch.error === null) delete out.error;
    else if (patch.error !== undefined) out.error = patch.error;
    if (patch.rules !== undefined) out.rules = patch.rules;
    if (patch.parts !== undefined) out.parts = patch.parts;
    return out;
  });
  const message = next.messages.get(patch.messageId);
  return patch.parts === undefined || !message ? next : { ...next, owners: withCalls(next.owners, message) };
}

function addToolUse(conversation: Conversation, data: ConversationEventData<'toolUse'>): Conversation {
  const part: ToolCallPart = { type: 'toolCall', toolCallId: data.toolCallId, name: data.name, input: data.input, summary: data.summary, state: data.state };
  const next = change(conversation, data.messageId, (m) => {
    const exists = m.parts.some((p) => p.type === 'toolCall' && p.toolCallId === data.toolCallId);
    return { ...m, parts: exists ? replaceCall(m.parts, data.toolCallId, () => part) : [...m.parts, part] };
  });
  if (next === conversation) return conversation;
  return { ...next, owners: new Map(next.owners).set(data.toolCallId, data.messageId) };
}

function change(conversation: Conversation, id: string, update: (message: UiMessage) => UiMessage): Conversation {
  const message = conversation.messages.get(id);
  if (!message) return conversation;
  const next = update(message);
  if (next === message) return conversation;
  return { ...conversation, messages: new Map(conversation.messages).set(id, next) };
}

function changeCall(conversation: Conversation, toolCallId: string, update: (part: ToolCallPart) => ToolCallPart): Conversation {
  const owner = conversation.owners.get(toolCallId);
  if (owner === undefined) return conversation;
  return change(conversation, owner, (m) => ({ ...m, parts: replaceCall(m.parts, toolCallId, update) }));
}

function replaceCall(parts: readonly UiPart[], toolCallId: string, update: (part: ToolCallPart) => ToolCallPart): UiPart[] {
  return parts.map((p) => (p.type === 'toolCall' && p.toolCallId === toolCallId ? update(p) : p));
}

function withCalls(owners: ReadonlyMap<string, string>, message: UiMessage): ReadonlyMap<string, string> {
  if (!message.parts.some((p) => p.type === 'toolCall' && owners.get(p.toolCallId) !== message.id)) return owners;
  const next = new Map(owners);
  indexCalls(next, message);
  return next;
}

function indexCalls(owners: Map<string, string>, message: UiMessage): void {
  for (const part of message.parts) if (part.type === 'toolCall') owners.set(part.toolCallId, message.id);
}
