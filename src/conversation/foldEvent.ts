import type { ToolCallPart, UiMessage, UiPart } from '../protocol/uiMessage';
import { withSubagentStep } from '../protocol/subagentSteps';
import { appendDelta } from './appendDelta';
import type { Conversation, ConversationEvent, ConversationEventData } from './conversationEvent';
import { ConversationDraft } from './conversationDraft';

export const EMPTY_CONVERSATION: Conversation = { ids: [], messages: new Map(), owners: new Map() };

/** A conversation holding these messages, in this order. */
export function conversationOf(messages: readonly UiMessage[]): Conversation {
  const byId = new Map<string, UiMessage>();
  const owners = new Map<string, string>();
  for (const message of messages) {
    byId.set(message.id, message);
    for (const part of message.parts) if (part.type === 'toolCall') owners.set(part.toolCallId, message.id);
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
 * The one reducer of the conversation as shown: the host's snapshot, the page's store, the
 * tests' mirror and a conversation reopened from its log all fold the same events with it.
 * Pure: the conversation given is not changed; what an event leaves alone is shared.
 * An event for a message or card not in view changes nothing.
 */
export function foldEvent(conversation: Conversation, event: ConversationEvent): Conversation {
  return foldEvents(conversation, [event]);
}

/** Many events at once (a conversation reopened from its log): the same fold, copying the conversation once. */
export function foldEvents(conversation: Conversation, events: Iterable<ConversationEvent>): Conversation {
  const draft = new ConversationDraft(conversation);
  for (const event of events) apply(draft, event);
  return draft.result();
}

function apply(draft: ConversationDraft, event: ConversationEvent): void {
  switch (event.type) {
    case 'message':
      draft.upsert(event.data.message);
      return;
    case 'messagePatch':
      patchMessage(draft, event.data);
      return;
    case 'partPatch': {
      const { index, part } = event.data;
      draft.change(event.data.messageId, (m) => (index < m.parts.length ? { ...m, parts: m.parts.map((p, i) => (i === index ? part : p)) } : m));
      return;
    }
    case 'textDelta':
    case 'reasoningDelta': {
      const kind = event.type === 'textDelta' ? 'text' : 'reasoning';
      draft.change(event.data.messageId, (m) => ({ ...m, parts: appendDelta(m.parts, kind, event.data.delta) }));
      return;
    }
    case 'toolUse':
      addToolUse(draft, event.data);
      return;
    case 'toolState': {
      const { state } = event.data;
      changeCall(draft, event.data.toolCallId, (part) => ({ ...part, state }));
      return;
    }
    case 'toolOutput': {
      const { output } = event.data;
      changeCall(draft, event.data.toolCallId, (part) => (part.state === 'running' ? { ...part, liveOutput: output } : part));
      return;
    }
    case 'toolResult': {
      const { state, output, isError, truncated } = event.data;
      changeCall(draft, event.data.toolCallId, ({ liveOutput: _live, progress: _progress, ...part }) => ({ ...part, state, result: { output, isError, truncated } }));
      return;
    }
    case 'toolPatch': {
      const { change: applied, files, moreFiles, progress, usage, app } = event.data;
      changeCall(draft, event.data.toolCallId, (part) => ({
        ...part,
        ...(applied ? { change: applied } : {}),
        ...(usage ? { usage } : {}),
        ...(files ? { files } : {}),
        ...(moreFiles !== undefined ? { moreFiles } : {}),
        ...(app ? { app } : {}),
        // Progress is what a running call says of itself: one that arrives after the result is stale.
        ...(progress && part.state === 'running' ? { progress } : {}),
      }));
      return;
    }
    case 'subagentStep': {
      const { agent, step } = event.data;
      changeCall(draft, event.data.toolCallId, (part) => ({ ...part, subagent: withSubagentStep(part.subagent, agent, step) }));
      return;
    }
    case 'mcpRequest': {
      const { part } = event.data;
      draft.change(event.data.messageId, (m) => {
        const at = m.parts.findIndex((p) => p.type === 'mcpRequest' && p.requestId === part.requestId);
        return { ...m, parts: at < 0 ? [...m.parts, part] : m.parts.map((p, i) => (i === at ? part : p)) };
      });
      return;
    }
  }
}

function patchMessage(draft: ConversationDraft, patch: ConversationEventData<'messagePatch'>): void {
  draft.change(patch.messageId, (m) => {
    const out: UiMessage = { ...m };
    if (patch.createdAt !== undefined) out.createdAt = patch.createdAt;
    if (patch.status !== undefined) out.status = patch.status;
    if (patch.error === null) delete out.error;
    else if (patch.error !== undefined) out.error = patch.error;
    if (patch.rules !== undefined) out.rules = patch.rules;
    if (patch.parts !== undefined) out.parts = patch.parts;
    if (patch.usage !== undefined) out.usage = patch.usage;
    return out;
  });
}

function addToolUse(draft: ConversationDraft, data: ConversationEventData<'toolUse'>): void {
  const part: ToolCallPart = { type: 'toolCall', toolCallId: data.toolCallId, name: data.name, input: data.input, display: data.display, state: data.state };
  draft.change(data.messageId, (m) => {
    const exists = m.parts.some((p) => p.type === 'toolCall' && p.toolCallId === data.toolCallId);
    return { ...m, parts: exists ? replaceCall(m.parts, data.toolCallId, () => part) : [...m.parts, part] };
  });
}

function changeCall(draft: ConversationDraft, toolCallId: string, update: (part: ToolCallPart) => ToolCallPart): void {
  const owner = draft.ownerOf(toolCallId);
  if (owner !== undefined) draft.change(owner, (m) => ({ ...m, parts: replaceCall(m.parts, toolCallId, update) }));
}

function replaceCall(parts: readonly UiPart[], toolCallId: string, update: (part: ToolCallPart) => ToolCallPart): UiPart[] {
  return parts.map((p) => (p.type === 'toolCall' && p.toolCallId === toolCallId ? update(p) : p));
}
