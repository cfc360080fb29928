import * as z from 'zod';
import { MAX_IMAGES_PER_MESSAGE } from './limits';
import { mcpAppMethods } from './mcpApp';
import { mcpAnswerSchema } from './mcpRequests';
import { planMethods } from './planState';
import type { MethodSpec } from './side';
import { agentModeSchema, workspaceProjectsSchema, sessionInfoSchema, sessionSummarySchema } from './sessionState';
import { configSetParamsSchema, modelInfoSchema, uiConfigSchema } from './uiConfig';
import { imageAttachmentSchema, lineRangeSchema, mentionSchema } from './uiMessage';

const empty = z.strictObject({});
const opened = z.strictObject({ opened: z.boolean() });

/** A command file or a skill, as the composer's `/` menu lists it; sent as `/name arguments`, the core expands it. */
export const slashEntrySchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(1000),
  kind: z.enum(['command', 'skill']),
  /** Where it was found (`.claude/commands/fix.md`, `~/.claude/skills/x`). */
  source: z.string().max(1000),
});
export type SlashEntry = z.infer<typeof slashEntrySchema>;

/** The only editor commands the chat may ask the host to run (buttons in the UI); never a free-form id. */
const uiCommandSchema = z.enum([
  'keel.setApiKey',
  'workbench.trust.manage',
  'keel.showMcpServers',
  'keel.mcpSignIn',
  'keel.newChatInWorktree',
  'keel.reviewWorktreeChanges',
  'keel.keepWorktreeBranch',
  'keel.discardWorktree',
]);

const sendParams = z
  .strictObject({
    text: z.string(),
    images: z.array(imageAttachmentSchema).max(MAX_IMAGES_PER_MESSAGE).optional(),
    mentions: z.array(mentionSchema).max(100).optional(),
    mode: agentModeSchema.optional(),
  })
  .refine((p) => p.text.trim().length > 0 || (p.images?.length ?? 0) > 0, {
    message: 'Write a message or attach an image',
  });

/** What putting files back did; `conflict` wrote nothing (files changed since): ask, then send again with `force`. */
const revertResult = z.strictObject({
  status: z.enum(['reverted', 'conflict', 'nothing', 'failed']),
  message: z.string(),
});

/** Requests the host answers (webview → host). One line each: what it does, then what follows. */
export const hostMethods = {
  /** Send a message (mode defaults to the current one); queued if a run is going; the reply streams as events. */
  'session.send': {
    params: sendParams,
    result: z.strictObject({ messageId: z.string().min(1), queued: z.boolean() }),
  },
  /** Stop the run in progress and drop queued messages; cancelled is false when nothing ran. */
  'session.cancel': { params: empty, result: z.strictObject({ cancelled: z.boolean() }) },
  /**
   * Summarize the conversation so far with the model (`/compact`); the next request starts from
   * the summary. A divider `message` shows it; `failed` changed nothing and says why.
   */
  'session.compact': {
    params: empty,
    result: z.strictObject({ status: z.enum(['compacted', 'nothing', 'failed']), message: z.string() }),
  },
  /** Start an empty conversation; a `snapshot` event follows. */
  'session.new': { params: empty, result: z.strictObject({ session: sessionInfoSchema }) },
  /** This workspace's past conversations, newest first, optionally filtered by a text query. */
  'sessions.list': {
    params: z.strictObject({
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().nonnegative().optional(),
      query: z.string().max(200).optional(),
    }),
    result: z.strictObject({ sessions: z.array(sessionSummarySchema), total: z.number().int().nonnegative() }),
  },
  /** Reopen a past conversation; a `snapshot` event follows. */
  'sessions.resume': {
    params: z.strictObject({ id: z.string().min(1) }),
    result: z.strictObject({ session: sessionInfoSchema }),
  },
  /** Give a past conversation a title (empty: back to its first prompt). */
  'sessions.rename': {
    params: z.strictObject({ id: z.string().min(1), title: z.string().max(200) }),
    result: z.strictObject({ title: z.string() }),
  },
  /** Delete a past conversation after the host asked the person to confirm; false when they declined. */
  'sessions.delete': { params: z.strictObject({ id: z.string().min(1) }), result: z.strictObject({ deleted: z.boolean() }) },
  /** Export a conversation: Markdown opens as a new editor, JSON goes through a save dialog. */
  'sessions.export': {
    params: z.strictObject({ id: z.string().min(1), format: z.enum(['markdown', 'json']) }),
    result: z.strictObject({ exported: z.boolean() }),
  },
  /** "Edit and resend": a new branch from before an earlier user message, with the edited text; a `snapshot` event follows. */
  'session.editAndResend': {
    params: z.strictObject({ messageId: z.string().min(1), text: z.string().min(1) }),
    result: z.strictObject({ messageId: z.string().min(1), queued: z.boolean() }),
  },
  /** Show another version of an edited prompt (1-based among its versions); a `snapshot` event follows. */
  'session.switchBranch': {
    params: z.strictObject({ messageId: z.string().min(1), index: z.number().int().min(1) }),
    result: z.strictObject({ session: sessionInfoSchema }),
  },
  /** Show the whole of a long conversation that was opened with its recent part only; a `snapshot` event follows. */
  'session.loadEarlier': { params: empty, result: z.strictObject({ shown: z.number().int().nonnegative() }) },
  /** Current settings for the settings panel (never the API key). */
  'config.get': { params: empty, result: uiConfigSchema },
  /** Change one setting (the person's choice, never the agent's); returns the new settings. */
  'config.set': { params: configSetParamsSchema, result: uiConfigSchema },
  /** Models the configured endpoint offers, and the one in use. */
  'models.list': {
    params: empty,
    result: z.strictObject({ models: z.array(modelInfoSchema), current: z.string().nullable() }),
  },
  /** The conversation works as this agent ('' for Keel's own) from its next message on, as "Use Agent…" does; an unknown name is refused. */
  'agent.use': { params: z.strictObject({ name: z.string().max(200) }), result: z.strictObject({ agent: z.string().nullable() }) },
  /** Workspace files and folders matching a fuzzy query, for @-mentions. */
  'files.search': {
    params: z.strictObject({ query: z.string().max(500), limit: z.number().int().min(1).max(200).optional() }),
    result: z.strictObject({
      results: z.array(z.strictObject({ path: z.string().min(1), kind: z.enum(['file', 'folder']) })),
    }),
  },
  /**
   * Files and folders dropped on the chat (their `file:` URIs) as mention chips; those outside
   * the workspace's folders are left out and counted.
   */
  'mentions.fromUris': {
    params: z.strictObject({ uris: z.array(z.string().min(1).max(4096)).min(1).max(200) }),
    result: z.strictObject({ mentions: z.array(mentionSchema), outside: z.number().int().nonnegative() }),
  },
  /** Open a workspace file (a path as in mentions) in an editor, optionally at a range. */
  'file.open': {
    params: z.strictObject({ path: z.string().min(1), range: lineRangeSchema.optional() }),
    result: opened,
  },
  /** Open an http(s) link externally; other schemes (command:, file:, javascript:) fail validation. */
  'link.open': { params: z.strictObject({ url: z.url({ protocol: /^https?$/ }) }), result: opened },
  /** Insert a code block at the cursor of the active editor. */
  'code.insert': {
    params: z.strictObject({ code: z.string(), language: z.string().optional() }),
    result: z.strictObject({ inserted: z.boolean() }),
  },
  /** Show a pending approval's change in VS Code's diff editor, without taking focus from the chat. */
  'diff.open': { params: z.strictObject({ approvalId: z.string().min(1) }), result: opened },
  /** Undo one applied file change (a tool card's Undo): the file goes back to before it; `message` events follow. */
  'change.undo': {
    params: z.strictObject({ changeId: z.string().min(1), force: z.boolean().optional() }),
    result: revertResult,
  },
  /** Undo every file one command changed (a bash card's Undo); `message` events follow. */
  'command.undo': {
    params: z.strictObject({ toolCallId: z.string().min(1), force: z.boolean().optional() }),
    result: revertResult,
  },
  /** Show what a command did to one file (its content before and after) in a diff editor. */
  'commandChange.diff': { params: z.strictObject({ changeId: z.string().min(1) }), result: opened },
  /** Put back every file Keel changed from this message on ("Restore files to here"); `message` events follow. */
  'changes.restore': {
    params: z.strictObject({ messageId: z.string().min(1), force: z.boolean().optional() }),
    result: revertResult,
  },
  /** Open the Settings editor filtered by a query (the host defaults it to Keel's settings). */
  'settings.open': { params: z.strictObject({ query: z.string().max(200).optional() }), result: opened },
  /** Make a workspace folder the conversation's current project (multi-root); refused while a run is going. */
  'workspaceProject.select': { params: z.strictObject({ name: z.string().min(1).max(500) }), result: workspaceProjectsSchema },
  /** An MCP server's prompt filled with the person's arguments, as the text of a message to send. */
  'mcp.prompt': {
    params: z.strictObject({ server: z.string().min(1), prompt: z.string().min(1), args: z.record(z.string(), z.string().max(20_000)) }),
    result: z.strictObject({ text: z.string() }),
  },
  /** The person's answer to an MCP server's request card; `settled` false when the request was already gone (answered, withdrawn, timed out). */
  'mcp.answer': {
    params: z.strictObject({ requestId: z.string().min(1).max(200), answer: mcpAnswerSchema }),
    result: z.strictObject({ settled: z.boolean() }),
  },
  /** The command files and skills of the workspace and the person's folders, as `/name` entries of the composer. */
  'setup.slashCommands': {
    params: empty,
    result: z.strictObject({ commands: z.array(slashEntrySchema).max(1000) }),
  },
  /**
   * Run one allow-listed editor command (e.g. "Keel: Set API Key" from the first-run panel).
   * `args`: a name for `/worktree NAME` (the command checks it).
   */
  'command.run': { params: z.strictObject({ command: uiCommandSchema, args: z.array(z.string().max(100)).max(1).optional() }), result: z.strictObject({ ran: z.boolean() }) },
  ...planMethods,
  ...mcpAppMethods,
} satisfies Record<string, MethodSpec>;
