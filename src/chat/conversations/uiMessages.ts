import * as l10n from '@vscode/l10n';
import type { AssistantModelMessage, ToolResultPart, UserContent } from 'ai';
import { isKeelNote } from '../../core/session';
import { isMentionExpansion } from '../../core/mentions';
import type { ConversationEvent } from '../../conversation/conversationEvent';
import { EMPTY_CONVERSATION, foldEvents, messagesOf } from '../../conversation/foldEvent';
import type { LoggedSubagent, SessionEntry } from '../../core/session';
import { presentByName } from '../../core/tools';
import type { ToolPresentation } from '../../core/tools';
import { capToolOutput } from '../../protocol/limits';
import { messageUsageSchema } from '../../protocol/messageUsage';
import { toolDisplaySchema } from '../../protocol/toolDisplay';
import { mentionSchema } from '../../protocol/uiMessage';
import type {
  ImageAttachment,
  ImagePart,
  Mention,
  MentionPart,
  ToolCallPart,
  ToolCallState,
  ToolOutput,
  UiMessage,
  UiPart,
} from '../../protocol/uiMessage';
import { toJsonValue } from './jsonValue';
import { parseMentions } from '../parts/mentionText';
import { withMentionNotes } from '../parts/mentionNotes';
import { personTextPart } from '../parts/personText';
import { subagentStepView } from '../parts/subagentSteps';
import type { SubagentCallLooks } from '../parts/subagentSteps';

/**
 * Converts what the session keeps (the model's messages) into what the chat view shows
 * (UiMessages). Tool results are folded into the tool-call parts of the assistant message
 * that made the call, so a call and its outcome render as one card.
 */

type ImageMediaType = ImagePart['mediaType'];
const IMAGE_TYPES: ReadonlySet<string> = new Set<ImageMediaType>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface ConversionOptions {
  /** Images larger than this (base64 characters) are listed without their data, to keep snapshots small. */
  maxImageChars?: number;
}

export const DEFAULT_MAX_SNAPSHOT_IMAGE_CHARS = 350_000;

const NONE_DECLINED: ReadonlySet<string> = new Set();

/**
 * What the person typed, as the model receives it: text, then images. Mentions are not part
 * of it: the Project expands them (`send(content, { mentions })`) and records what they became.
 */
export function userContent(input: { text: string; images?: readonly ImageAttachment[] }): UserContent {
  const images = input.images ?? [];
  if (images.length === 0) return input.text;
  const content: Exclude<UserContent, string> = [];
  if (input.text.trim() !== '') content.push({ type: 'text', text: input.text });
  for (const image of images) {
    content.push({ type: 'file', mediaType: image.mediaType, data: { type: 'data', data: image.data } });
  }
  return content;
}

/** The live form of a message the person just sent (images keep their data). */
export function userUiMessage(
  id: string,
  input: { text: string; images?: readonly ImageAttachment[]; mentions?: readonly Mention[] },
  createdAt: number,
  status: UiMessage['status'],
): UiMessage {
  const parts: UiPart[] = [];
  if (input.text.trim() !== '') parts.push(personTextPart(input.text));
  for (const image of input.images ?? []) parts.push({ type: 'image', mediaType: image.mediaType, data: image.data });
  for (const mention of input.mentions ?? []) parts.push({ type: 'mention', mention });
  return { id, role: 'user', parts, status, createdAt };
}

export function userParts(content: UserContent, opts: ConversionOptions = {}): UiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [personTextPart(content)];
  const parts: UiPart[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      // The expansion and the workspace context are what the model saw; the view shows the mentions as chips instead.
      if (isMentionExpansion(part.text) || isKeelNote(part.text)) continue;
      const mentions = parseMentions(part.text);
      if (mentions) for (const mention of mentions) parts.push({ type: 'mention', mention });
      else parts.push({ type: 'text', text: part.text });
      continue;
    }
    const image = part.type === 'image' ? imagePart(part.mediaType, part.image, opts) : imagePart(part.mediaType, part.data, opts);
    if (image) parts.push(image);
  }
  return parts;
}

/** Text and reasoning of an assistant message, with tool calls as cards in the given state. */
export function assistantParts(
  content: AssistantModelMessage['content'],
  stateOf: (toolCallId: string) => ToolCallState,
  displays?: Readonly<Record<string, unknown>>,
): UiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [personTextPart(content)];
  const parts: UiPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') parts.push({ type: 'text', text: part.text });
        break;
      case 'reasoning':
        if (part.text !== '') parts.push({ type: 'reasoning', text: part.text });
        break;
      case 'tool-call':
        parts.push(toolCallPart(part.toolCallId, part.toolName, part.input, stateOf(part.toolCallId), loggedDisplay(displays?.[part.toolCallId])));
        break;
      default:
        // Provider-specific parts (files the model generated, custom parts) are not shown.
        break;
    }
  }
  return parts;
}

/** A card the log kept for a call to a tool that is not built in; one that does not fit the schema is drawn again by name. */
function loggedDisplay(value: unknown): ToolPresentation | undefined {
  if (value === undefined) return undefined;
  const parsed = toolDisplaySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A call's part; `display` is the card its tool drew (a resumed built-in call's is drawn again by its name). */
export function toolCallPart(toolCallId: string, name: string, input: unknown, state: ToolCallState, display?: ToolPresentation): ToolCallPart {
  return { type: 'toolCall', toolCallId, name, input: toJsonValue(input), display: display ?? presentByName(name, input), state };
}

/** A tool result as the card shows it: text, capped, with whether it was an error. */
export function toolOutputOf(output: ToolResultPart['output']): ToolOutput {
  let text: string;
  let isError = false;
  switch (output.type) {
    case 'text':
      text = output.value;
      break;
    case 'error-text':
      text = output.value;
      isError = true;
      break;
    case 'json':
      text = JSON.stringify(output.value, null, 2);
      break;
    case 'error-json':
      text = JSON.stringify(output.value, null, 2);
      isError = true;
      break;
    case 'execution-denied':
      text = output.reason ?? l10n.t('The person declined this call.');
      isError = true;
      break;
    case 'content':
      text = output.value.map((p) => (p.type === 'text' ? p.text : `[${'mediaType' in p && p.mediaType ? p.mediaType : 'file'}]`)).join('\n');
      break;
  }
  const capped = capToolOutput(text);
  return { output: capped.output, isError, truncated: capped.truncated };
}

export function finalToolState(output: ToolResultPart['output']): 'done' | 'error' | 'rejected' {
  if (output.type === 'execution-denied') return 'rejected';
  return output.type === 'error-text' || output.type === 'error-json' ? 'error' : 'done';
}

/**
 * The active branch of a session as the view shows it. Ids are the session's message ids.
 * The log is replayed as the events a live run sends, through the same fold. A call without a
 * result (the window closed mid-run) shows as cancelled.
 */
export function entriesToUiMessages(entries: readonly SessionEntry[], opts: ConversionOptions = {}): UiMessage[] {
  return messagesOf(foldEvents(EMPTY_CONVERSATION, entryEvents(entries, opts)));
}

function entryEvents(entries: readonly SessionEntry[], opts: ConversionOptions): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  const emit = (event: ConversationEvent): void => void events.push(event);
  const shown = new Set<string>();
  for (const entry of entries) {
    const createdAt = epochMs(entry.ts);
    if (entry.kind === 'compaction') {
      const part = { summary: entry.summary, compactedMessages: entry.messages ?? 0, ...(entry.reason ? { reason: entry.reason } : {}) };
      emit({ type: 'message', data: { message: compactionUiMessage(entry.id, createdAt, part, 'done') } });
      continue;
    }
    const { message } = entry;
    const base = { id: entry.id, createdAt };
    switch (message.role) {
      case 'system':
        emit({ type: 'message', data: { message: { ...base, role: 'system', parts: [{ type: 'text', text: message.content }], status: 'done' } } });
        break;
      case 'user': {
        // Event rules' reminders are for the model; the view marks the rules that fired instead.
        if (entry.meta?.rules) break;
        const chips = mentionParts(entry.meta?.mentions ?? []);
        const user: UiMessage = { ...base, role: 'user', parts: [...userParts(message.content, opts), ...chips], status: 'done' };
        emit({ type: 'message', data: { message: withMentionNotes(user, entry.meta?.mentionNotes ?? []) } });
        break;
      }
      case 'assistant': {
        const parts = assistantParts(message.content, () => 'cancelled', entry.meta?.displays);
        for (const part of parts) if (part.type === 'toolCall') shown.add(part.toolCallId);
        const ui: UiMessage = { ...base, role: 'assistant', parts, status: entry.meta?.partial ? 'cancelled' : 'done' };
        if (entry.meta?.model) ui.model = entry.meta.model;
        emit({ type: 'message', data: { message: ui } });
        break;
      }
      case 'tool': {
        const declined: ReadonlySet<string> = entry.meta?.declined ? new Set(entry.meta.declined) : NONE_DECLINED;
        const orphans: UiPart[] = [];
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          const result = toolOutputOf(part.output);
          if (!shown.has(part.toolCallId)) {
            orphans.push({ type: 'toolResult', toolCallId: part.toolCallId, name: part.toolName, ...result });
            continue;
          }
          const state = declined.has(part.toolCallId) ? 'rejected' : finalToolState(part.output);
          emit({ type: 'toolResult', data: { toolCallId: part.toolCallId, name: part.toolName, state, ...result } });
          emitSubagentSteps(part.toolCallId, entry.meta?.subagents?.[part.toolCallId], emit);
        }
        if (orphans.length > 0) emit({ type: 'message', data: { message: { ...base, role: 'tool', parts: orphans, status: 'done' } } });
        break;
      }
    }
    if (entry.interruption) emit({ type: 'message', data: { message: interruptionUiMessage(`${entry.id}-cut`, epochMs(entry.interruption.ts), entry.interruption.note) } });
  }
  return events;
}

/** The divider that marks a compaction; `summary` is empty while it is being written. */
export function compactionUiMessage(
  id: string,
  createdAt: number,
  part: { summary: string; compactedMessages: number; reason?: 'manual' | 'auto' | 'overflow' },
  status: UiMessage['status'],
): UiMessage {
  return { id, role: 'system', parts: [{ type: 'compaction', ...part }], status, createdAt };
}

/** The note where Keel stopped mid-run; the log's note is addressed to the model, so the view says it plainly. */
export function interruptionUiMessage(id: string, createdAt: number, note: string): UiMessage {
  const what = /: (.*)\]$/s.exec(note)?.[1] ?? note;
  const text = l10n.t('Keel stopped before this finished (the editor or the keel command was closed): {0}', what);
  return { id, role: 'system', parts: [{ type: 'interruption', text }], status: 'done', createdAt };
}

/** Chips for the mentions a user message's meta lists; one the view cannot show is left out. */
export function mentionParts(mentions: readonly unknown[]): MentionPart[] {
  const parts: MentionPart[] = [];
  for (const candidate of mentions) {
    const parsed = mentionSchema.safeParse(candidate);
    if (parsed.success) parts.push({ type: 'mention', mention: parsed.data });
  }
  return parts;
}

function imagePart(mediaType: string | undefined, data: unknown, opts: ConversionOptions): ImagePart | undefined {
  if (!mediaType || !IMAGE_TYPES.has(mediaType)) return undefined;
  const type = mediaType as ImageMediaType;
  const base64 = base64Of(data);
  const max = opts.maxImageChars ?? DEFAULT_MAX_SNAPSHOT_IMAGE_CHARS;
  if (base64 === undefined || base64.length > max) return { type: 'image', mediaType: type };
  return { type: 'image', mediaType: type, data: base64 };
}

/** Base64 from the shapes the session stores (bytes were written as base64 strings). */
function base64Of(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && 'type' in data) {
    const tagged = data as { type: unknown; data?: unknown };
    return tagged.type === 'data' ? base64Of(tagged.data) : undefined;
  }
  if (typeof data !== 'string' || data.length === 0) return undefined;
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  const body = comma >= 0 ? data.slice(comma + 1) : data;
  return BASE64.test(body) ? body : undefined;
}

function epochMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}

/** A task call's subagent as the log kept it: the same steps, through the same fold, as it was shown live. */
function emitSubagentSteps(toolCallId: string, logged: LoggedSubagent | undefined, emit: (e: ConversationEvent) => void): void {
  if (!logged) return;
  const looks: SubagentCallLooks = new Map();
  for (const raw of logged.steps) {
    const step = subagentStepView(raw, looks);
    if (step) emit({ type: 'subagentStep', data: { toolCallId, agent: logged.agent, step } });
  }
  const usage = messageUsageSchema.safeParse(logged.usage);
  if (usage.success) emit({ type: 'toolPatch', data: { toolCallId, usage: usage.data } });
}
