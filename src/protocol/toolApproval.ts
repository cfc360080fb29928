import * as z from 'zod';
import { MAX_CHANGE_TEXT_CHARS } from './limits';

/** Mirrors the core's ToolCategory: `read` never asks, the others follow the approval mode. */
export const toolCategorySchema = z.enum(['read', 'write', 'command', 'network']);

/** A proposed file change, as the approval card shows it. */
export const proposedChangeSchema = z.strictObject({
  /** Absolute real path inside the workspace. */
  path: z.string().min(1),
  /** Relative to its workspace folder, for display. */
  displayPath: z.string().min(1),
  kind: z.enum(['create', 'edit', 'delete']),
  /** Line counts of the diff. */
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** Left out when the file is too large; null when the file does not exist (before) or is deleted (after). */
  before: z.string().max(MAX_CHANGE_TEXT_CHARS).nullable().optional(),
  after: z.string().max(MAX_CHANGE_TEXT_CHARS).nullable().optional(),
});

/**
 * Host → webview request: ask the person about one tool call. Also listed in snapshots
 * as pending approvals; the host re-sends the request after each snapshot and the UI
 * matches it to the card by `id`. The core's ApprovalRequest, field for field, plus the
 * host's `id`; `change` comes as the diff the card shows.
 */
export const toolApprovalRequestSchema = z.strictObject({
  /** Approval id (one per request, stable across re-sends). */
  id: z.string().min(1),
  /** The toolCall part this approval belongs to. */
  toolCallId: z.string().min(1),
  tool: z.string().min(1),
  category: toolCategorySchema,
  /** One line: the command, the path, the URL. */
  summary: z.string(),
  input: z.json(),
  /** Paths the call touches, relative to their workspace folder (prefixed by its name in multi-root). */
  paths: z.array(z.string()),
  /** A protected path is involved: the UI must not offer "always allow" (session scope). */
  protected: z.boolean(),
  change: proposedChangeSchema.optional(),
  /**
   * For commands: the prefixes an answer with session scope adds to this session's allowed
   * commands (e.g. `npm test`); the tool itself is never allowed as a whole. A bash request
   * without it cannot be always-allowed: session scope then approves once.
   */
  allowPrefixes: z.array(z.string().min(1).max(500)).max(50).optional(),
  /** A command asks for network access inside the OS sandbox: approving grants it for this run. */
  network: z.boolean().optional(),
  /** A command asks to run outside the OS sandbox: approve once only, never always-allow. */
  unsandboxed: z.boolean().optional(),
  /** Which approval rule sent this to the person (left out by callers that ask without one). */
  rule: z.string().max(200).optional(),
  /** A command asks to write the workspace, which an allow rule alone never lets it do: approve once. */
  writeAccess: z.boolean().optional(),
});

/**
 * Webview → host: the person's answer to a `toolApproval` request, in the core's terms (its
 * ApprovalAnswer without what only the host adds: the reviewed content, its note, a read-only
 * workspace).
 */
export const toolApprovalAnswerSchema = z.strictObject({
  approved: z.boolean(),
  /** 'session': approve and stop asking for this tool (or command prefix) in this session; counts once on a protected path. */
  scope: z.enum(['once', 'session']).optional(),
  /** Why it was rejected, passed on to the model. */
  reason: z.string().max(2000).optional(),
});

export type ToolCategory = z.infer<typeof toolCategorySchema>;
export type ProposedChange = z.infer<typeof proposedChangeSchema>;
export type ToolApprovalRequest = z.infer<typeof toolApprovalRequestSchema>;
export type ToolApprovalAnswer = z.infer<typeof toolApprovalAnswerSchema>;
