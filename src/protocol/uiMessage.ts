import * as z from 'zod';
import { toolAppSchema } from './mcpApp';
import { subagentViewSchema } from './subagentSteps';
import { messageUsageSchema } from './messageUsage';
import { mcpRequestPartSchema } from './mcpRequests';
import { toolDisplaySchema } from './toolDisplay';
import { MAX_FIRED_RULES, MAX_IMAGE_BASE64_CHARS, MAX_LIVE_OUTPUT_CHARS, MAX_RULE_TEXT_CHARS, MAX_TOOL_OUTPUT_CHARS } from './limits';

/**
 * The conversation as the webview holds it: what snapshots carry and what the store
 * keeps. It is a view of the session, not the model's message history.
 */

export const messageRoleSchema = z.enum(['user', 'assistant', 'tool', 'system']);

/**
 * queued: a user message waiting for the current run; streaming: deltas still arriving;
 * done / error / cancelled: final.
 */
export const messageStatusSchema = z.enum(['queued', 'streaming', 'done', 'error', 'cancelled']);

export const imageMediaTypeSchema = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An image the person attached; base64 without a `data:` prefix. */
export const imageAttachmentSchema = z.strictObject({
  mediaType: imageMediaTypeSchema,
  data: z.base64().min(1).max(MAX_IMAGE_BASE64_CHARS),
});

/** 1-based, inclusive. */
export const lineRangeSchema = z.strictObject({
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
});

/**
 * A file or folder @-mention: a path as `files.search` returned it (relative to its workspace
 * folder, prefixed by the folder name in a multi-root workspace), optionally narrowed to lines.
 */
export const pathMentionSchema = z.strictObject({
  kind: z.enum(['file', 'folder']),
  path: z.string().min(1),
  range: lineRangeSchema.optional(),
});

/**
 * An @-mention: a file or folder, or something the editor or git knows: every problem in the
 * workspace, the active selection, the working tree's diff, the last command in Keel's
 * terminal, a web page (fetched with approval).
 */
export const mentionSchema = z.union([
  pathMentionSchema,
  z.strictObject({ kind: z.literal('problems') }),
  z.strictObject({ kind: z.literal('selection') }),
  /** `base`: the branch's changes since it left that branch, instead of the uncommitted ones. */
  z.strictObject({ kind: z.literal('git'), base: z.string().min(1).max(200).regex(/^[\w./-]+$/).optional() }),
  z.strictObject({ kind: z.literal('terminal') }),
  z.strictObject({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/ }).max(2048) }),
  /** A resource of an MCP server (`@server:uri`), read from the server when the message is sent. */
  z.strictObject({ kind: z.literal('resource'), server: z.string().min(1).max(200), uri: z.string().min(1).max(2048) }),
]);

/**
 * streaming: the model is still writing the input; awaitingApproval: a toolApproval
 * request is open; running: executing; the rest are final.
 */
export const toolCallStateSchema = z.enum([
  'streaming',
  'awaitingApproval',
  'running',
  'done',
  'error',
  'rejected',
  'cancelled',
]);

export const toolOutputSchema = z.strictObject({
  /** Capped text (see capToolOutput); images in results are not forwarded to the UI. */
  output: z.string().max(MAX_TOOL_OUTPUT_CHARS),
  isError: z.boolean(),
  truncated: z.boolean(),
});

export const textPartSchema = z.strictObject({ type: z.literal('text'), text: z.string() });

export const reasoningPartSchema = z.strictObject({ type: z.literal('reasoning'), text: z.string() });

/** `data` may be left out (e.g. in resumed sessions) to keep snapshots small. */
export const imagePartSchema = z.strictObject({
  type: z.literal('image'),
  mediaType: imageMediaTypeSchema,
  data: z.base64().max(MAX_IMAGE_BASE64_CHARS).optional(),
});

/** Why a mention's content reached the model cut short, left out for the budget, or not at all. */
export const mentionNoteSchema = z.strictObject({
  status: z.enum(['cut', 'omitted', 'failed']),
  text: z.string().max(1000),
});

export const mentionPartSchema = z.strictObject({ type: z.literal('mention'), mention: mentionSchema, note: mentionNoteSchema.optional() });

/** A file change the call applied, as recorded in the change journal (the card offers Undo). */
export const appliedChangeSchema = z.strictObject({
  /** Journal id, for `change.undo`. */
  id: z.string().min(1),
  displayPath: z.string().min(1),
  kind: z.enum(['create', 'edit', 'delete']),
  /** False when Keel could not keep the earlier content (journal full). */
  undoable: z.boolean(),
  /** Put back since (Undo, Restore files to here). */
  reverted: z.boolean(),
});

/** Most files a command card lists; past it the card says how many more. */
export const MAX_COMMAND_FILES = 200;

/** A file a command (bash) added, modified or deleted, from snapshots around it (the card offers a diff and Undo). */
export const commandFileSchema = z.strictObject({
  /** Change id, for `change.undo` and `commandChange.diff`. */
  id: z.string().min(1),
  displayPath: z.string().min(1),
  kind: z.enum(['added', 'modified', 'deleted']),
  /** Lines added and removed; absent for binary or large content. */
  added: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
  /** False when its earlier content was recorded by hash only (large or binary). */
  restorable: z.boolean(),
  reverted: z.boolean(),
});

/** How far a running call says it is (an MCP server's progress): a percent and/or a message. */
export const toolProgressSchema = z.strictObject({
  percent: z.number().min(0).max(100).optional(),
  message: z.string().max(200).optional(),
});

/** A tool call inside an assistant message; its result lands here once known. */
export const toolCallPartSchema = z.strictObject({
  type: z.literal('toolCall'),
  toolCallId: z.string().min(1),
  name: z.string().min(1),
  input: z.json(),
  /** How the card looks, as the tool described it: title, one line, icon, details. */
  display: toolDisplaySchema,
  state: toolCallStateSchema,
  result: toolOutputSchema.optional(),
  /** The file change it applied, once applied. */
  change: appliedChangeSchema.optional(),
  /** The files a command changed (bash), once it ended. */
  files: z.array(commandFileSchema).max(MAX_COMMAND_FILES).optional(),
  /** How many more files it changed than `files` lists. */
  moreFiles: z.number().int().positive().optional(),
  /** While it runs: the tail of what it printed so far (commands); the result replaces it. */
  liveOutput: z.string().max(MAX_LIVE_OUTPUT_CHARS).optional(),
  /** While it runs: the latest progress it reported. */
  progress: toolProgressSchema.optional(),
  /** A `task` call: the subagent it started and its steps. */
  subagent: subagentViewSchema.optional(),
  /** A `task` call: what its subagent's model calls used so far (the run's usage counts them too). */
  usage: messageUsageSchema.optional(),
  /** An MCP tool's app (`ui://` resource), shown on the card once the result is in (live calls only). */
  app: toolAppSchema.optional(),
});

/** A result shown on its own, in a `tool` message, when its call is not in view. */
export const toolResultPartSchema = z.strictObject({
  type: z.literal('toolResult'),
  toolCallId: z.string().min(1),
  name: z.string().min(1),
  ...toolOutputSchema.shape,
});

/**
 * Where the conversation was compacted: the summary the model continues from (empty while it
 * is being written), and how many messages it stands for. The view shows a divider that opens.
 */
export const compactionPartSchema = z.strictObject({
  type: z.literal('compaction'),
  summary: z.string(),
  compactedMessages: z.number().int().nonnegative(),
  reason: z.enum(['manual', 'auto', 'overflow']).optional(),
});

/** Keel stopped mid-run here (the editor or the CLI was closed): what was cut. */
export const interruptionPartSchema = z.strictObject({ type: z.literal('interruption'), text: z.string() });

/** The person executed a plan: the chat shows its title and the plan, folded, not the instructions the model got. */
export const planExecutionPartSchema = z.strictObject({ type: z.literal('planExecution'), title: z.string(), plan: z.string() });

export const uiPartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  reasoningPartSchema,
  imagePartSchema,
  mentionPartSchema,
  toolCallPartSchema,
  toolResultPartSchema,
  compactionPartSchema,
  interruptionPartSchema,
  planExecutionPartSchema,
  mcpRequestPartSchema,
]);

/** An event rule that fired on this turn (the view's "2 rules" marker); texts are capped for display. */
export const firedRuleSchema = z.strictObject({
  id: z.string().min(1),
  source: z.enum(['workspace', 'user', 'builtin']),
  /** The conversation event it fired on (tool_result, prompt_submit, ...). */
  event: z.string().min(1),
  actions: z.array(z.strictObject({ type: z.enum(['inject_context', 'reminder', 'notify']), text: z.string().max(MAX_RULE_TEXT_CHARS) })),
});

export const uiMessageSchema = z.strictObject({
  id: z.string().min(1),
  role: messageRoleSchema,
  /** In display order. Deltas extend the last part when it has the delta's type. */
  parts: z.array(uiPartSchema),
  status: messageStatusSchema,
  /** Epoch milliseconds. */
  createdAt: z.number().int().nonnegative(),
  /** Assistant messages: the model that wrote it. */
  model: z.string().optional(),
  /** Set when status is `error`: what went wrong, in words for the person. */
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
  /** Event rules that fired on this turn. */
  rules: z.array(firedRuleSchema).max(MAX_FIRED_RULES).optional(),
  /** A prompt that was edited and resent: which of its versions this branch shows (1-based). */
  branch: z.strictObject({ index: z.number().int().min(1), count: z.number().int().min(2) }).optional(),
  /** What the model calls behind it used and cost (an answer, a compaction's summary). */
  usage: messageUsageSchema.optional(),
});

export type MessageRole = z.infer<typeof messageRoleSchema>;
export type MessageStatus = z.infer<typeof messageStatusSchema>;
export type ImageAttachment = z.infer<typeof imageAttachmentSchema>;
export type LineRange = z.infer<typeof lineRangeSchema>;
export type Mention = z.infer<typeof mentionSchema>;
export type PathMention = z.infer<typeof pathMentionSchema>;
export type ToolCallState = z.infer<typeof toolCallStateSchema>;
export type ToolOutput = z.infer<typeof toolOutputSchema>;
export type TextPart = z.infer<typeof textPartSchema>;
export type ReasoningPart = z.infer<typeof reasoningPartSchema>;
export type ImagePart = z.infer<typeof imagePartSchema>;
export type MentionPart = z.infer<typeof mentionPartSchema>;
export type MentionNote = z.infer<typeof mentionNoteSchema>;
export type AppliedChange = z.infer<typeof appliedChangeSchema>;
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;
export type ToolProgress = z.infer<typeof toolProgressSchema>;
export type CommandFile = z.infer<typeof commandFileSchema>;
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;
export type CompactionPart = z.infer<typeof compactionPartSchema>;
export type InterruptionPart = z.infer<typeof interruptionPartSchema>;
export type PlanExecutionPart = z.infer<typeof planExecutionPartSchema>;
export type UiPart = z.infer<typeof uiPartSchema>;
export type UiMessage = z.infer<typeof uiMessageSchema>;
export type FiredRuleInfo = z.infer<typeof firedRuleSchema>;

/** The visible text of a message (text parts only), e.g. for copy or search. */
export function messageText(message: UiMessage): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
}
