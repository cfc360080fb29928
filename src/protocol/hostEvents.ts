import * as z from 'zod';
import { subagentStepEventSchema } from './subagentSteps';
import { MAX_FIRED_RULES, MAX_LIVE_OUTPUT_CHARS, MAX_TOOL_OUTPUT_CHARS } from './limits';
import { toolAppSchema } from './mcpApp';
import { mcpStatusSchema } from './mcpStatus';
import { mcpRequestPartSchema } from './mcpRequests';
import { messageUsageSchema } from './messageUsage';
import { toolDisplaySchema } from './toolDisplay';
import {
  agentModeSchema,
  configSummarySchema,
  contextTrimmedSchema,
  workspaceProjectsSchema,
  ruleInEffectSchema,
  runStateSchema,
  sessionInfoSchema,
  snapshotSchema,
  todoItemSchema,
  uiErrorSchema,
  usageSchema,
} from './sessionState';
import { planInfoSchema } from './planState';
import { sessionActivitySchema } from './conversationActivity';
import {
  appliedChangeSchema,
  commandFileSchema,
  firedRuleSchema,
  MAX_COMMAND_FILES,
  mentionSchema,
  messageStatusSchema,
  toolCallStateSchema,
  toolProgressSchema,
  uiMessageSchema,
  uiPartSchema,
} from './uiMessage';

const messageId = z.string().min(1);
const toolCallId = z.string().min(1);

/**
 * Events the host emits (host → webview). Small, targeted updates: only `snapshot`
 * carries the whole conversation. The conversation's own events (`message`, the patches, the
 * deltas and the tool events) are folded by src/conversation/foldEvent.ts on both sides.
 */
export const hostEvents = {
  /** The whole state: on every `ready`, and when the conversation is replaced (new / resumed). */
  snapshot: snapshotSchema,
  /** The MCP servers' states and prompts: after every `ready` and whenever one changes. */
  'mcp.status': mcpStatusSchema,
  /** Streamed answer text; extends the message's last text part, or starts one (see appendDelta). */
  textDelta: z.strictObject({ messageId, delta: z.string() }),
  /** Streamed reasoning; same rule with reasoning parts. */
  reasoningDelta: z.strictObject({ messageId, delta: z.string() }),
  /** Add or replace one message by id (a new message; one leaving the queue moves before the rest of it). */
  message: z.strictObject({ message: uiMessageSchema }),
  /**
   * Change one message's own fields: status (and its error; null clears it), fired rules, its
   * parts replaced outright, or its time (the log's, once the message is recorded).
   */
  messagePatch: z.strictObject({
    messageId,
    createdAt: z.number().int().nonnegative().optional(),
    status: messageStatusSchema.optional(),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable().optional(),
    rules: z.array(firedRuleSchema).max(MAX_FIRED_RULES).optional(),
    parts: z.array(uiPartSchema).optional(),
    usage: messageUsageSchema.optional(),
  }),
  /** Replace one part of a message, by position (a mention chip gets its note). */
  partPatch: z.strictObject({ messageId, index: z.number().int().nonnegative(), part: uiPartSchema }),
  /** A tool card's file change, the files its command changed (the lists given replace the card's), or its subagent's usage. */
  toolPatch: z.strictObject({
    toolCallId,
    change: appliedChangeSchema.optional(),
    files: z.array(commandFileSchema).max(MAX_COMMAND_FILES).optional(),
    moreFiles: z.number().int().positive().optional(),
    progress: toolProgressSchema.optional(),
    /** A `task` call's subagent usage so far (replaces the card's). */
    usage: messageUsageSchema.optional(),
    app: toolAppSchema.optional(),
  }),
  /** An MCP server's request (a question, a sampling request) as a card in a message: added, or replaced by its requestId. */
  mcpRequest: z.strictObject({ messageId, part: mcpRequestPartSchema }),
  /** A subagent's step, for the card of the `task` call that started it (see subagentSteps.ts). */
  subagentStep: subagentStepEventSchema,
  /** The model called a tool: append a toolCall part to the message. */
  toolUse: z.strictObject({
    messageId,
    toolCallId,
    name: z.string().min(1),
    input: z.json(),
    display: toolDisplaySchema,
    state: toolCallStateSchema,
  }),
  /** A tool call moved on (waiting for approval, now running), or was closed without a result (run cancelled or failed). */
  toolState: z.strictObject({ toolCallId, state: toolCallStateSchema }),
  /** A tool call finished: its final state and capped output. */
  toolResult: z.strictObject({
    toolCallId,
    name: z.string().min(1),
    state: z.enum(['done', 'error', 'rejected', 'cancelled']),
    isError: z.boolean(),
    output: z.string().max(MAX_TOOL_OUTPUT_CHARS),
    truncated: z.boolean(),
  }),
  /** A running tool's output so far (its tail), sent a few times a second while it prints. */
  toolOutput: z.strictObject({ toolCallId, output: z.string().max(MAX_LIVE_OUTPUT_CHARS) }),
  /** Token counts after a model turn, for the context meter. */
  usage: usageSchema,
  /** The model call failed and will be tried again after delayMs. */
  retry: z.strictObject({
    attempt: z.number().int().min(1),
    maxAttempts: z.number().int().min(1),
    error: z.string(),
    delayMs: z.number().int().nonnegative(),
  }),
  /** The rules files the agent follows for the request just made (replaces the earlier list). */
  rules: z.strictObject({ rules: z.array(ruleInEffectSchema) }),
  /** The conversation did not fit the model's window: the oldest part was left out and the call is tried again. */
  contextTrimmed: contextTrimmedSchema,
  /** Something the person must see (not tied to one message); says what to do next. */
  error: uiErrorSchema,
  /** Running / mode / approval mode / model / queue length changed. */
  state: runStateSchema,
  /** The agent's todo list, replaced whole (it is short). */
  todos: z.strictObject({ items: z.array(todoItemSchema) }),
  /** The conversation's id or title changed (first message saved, title generated). */
  session: sessionInfoSchema,
  /** Model configured / workspace trust / config problem changed. */
  config: configSummarySchema,
  /**
   * Prefill the composer (from the editor: "Fix with Keel", "Add to Chat"); focus it. `add`: the
   * mentions join what is already there (each once) and the text goes after what is typed;
   * otherwise the draft is replaced.
   */
  composer: z.strictObject({
    text: z.string().optional(),
    mentions: z.array(mentionSchema).optional(),
    mode: agentModeSchema.optional(),
    add: z.boolean().optional(),
  }),
  /** The workspace projects (folders) or the conversation's current one changed. */
  workspaceProjects: workspaceProjectsSchema,
  /** Show one of the chat view's panels (from a view-title command such as "Show History"). */
  'view.show': z.strictObject({ panel: z.enum(['chat', 'sessions']) }),
  /** The conversation's newest plan changed (made, edited, executed, refined, discarded); null: none. */
  plan: z.strictObject({ plan: planInfoSchema.nullable() }),
  /** The window's conversations that run, wait or ended unseen changed (the sessions list follows it). */
  'sessions.activity': sessionActivitySchema,
};
