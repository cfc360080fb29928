import * as z from 'zod';
import { conversationActivitySchema } from './conversationActivity';
import { contextPartsSchema, tokenUsageShape } from './messageUsage';
import { planInfoSchema } from './planState';
import { toolApprovalRequestSchema } from './toolApproval';
import { uiMessageSchema } from './uiMessage';

/** act: all tools, approval rules apply; plan: read-only tools and the plan prompt. */
export const agentModeSchema = z.enum(['act', 'plan']);

/** manual: ask for write/command/network; autoEdit: writes go through; yolo: never ask. */
export const approvalModeSchema = z.enum(['manual', 'autoEdit', 'yolo']);

/** How much the model reasons: `default` sends nothing (the provider's own); the rest as the model's API takes them. */
export const reasoningChoiceSchema = z.enum(['default', 'off', 'minimal', 'low', 'medium', 'high']);

/** The model's reasoning choices, for the composer's picker: present only where the model takes one. */
export const modelReasoningSchema = z.strictObject({
  /** `provider/model`: the choice is the person's for this model. */
  model: z.string().min(1),
  /** What the model takes, besides `default`. */
  levels: z.array(reasoningChoiceSchema.exclude(['default'])).min(1),
  value: reasoningChoiceSchema,
});

/** What the header and the composer need to know about the agent right now. */
export const runStateSchema = z.strictObject({
  running: z.boolean(),
  mode: agentModeSchema,
  approvalMode: approvalModeSchema,
  /** Model id in use, null when none is configured. */
  model: z.string().nullable(),
  /** User messages waiting for the current run to finish. */
  queued: z.number().int().nonnegative(),
  /** The model's reasoning choice; absent when it has none to choose. */
  reasoning: modelReasoningSchema.optional(),
  /** The custom agent the conversation works as (see "Use Agent…"); absent for Keel's own. */
  agent: z.string().min(1).optional(),
});

export const usageSchema = z.strictObject({
  ...tokenUsageShape,
  /** Tokens the conversation occupies in the context window now. */
  contextTokens: z.number().int().nonnegative().optional(),
  contextWindow: z.number().int().positive().optional(),
  /** What those tokens are, from the latest request; they add up to contextTokens. */
  contextParts: contextPartsSchema.optional(),
  /** The size at which the conversation is compacted automatically; absent when it is not. */
  compactAt: z.number().int().positive().optional(),
});

export const todoItemSchema = z.strictObject({
  id: z.string().min(1),
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
});

/** Enough for the UI to show an empty state that tells the person what to do. */
/** Where requests would go before a model is chosen, and whether that endpoint wants a key. */
export const endpointSummarySchema = z.strictObject({
  label: z.string(),
  baseURL: z.string().optional(),
  needsKey: z.boolean(),
});

/** A custom agent (`.keel/agents`, `.claude/agents`…), as the composer's agent picker lists it. */
export const agentEntrySchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
});

export const configSummarySchema = z.strictObject({
  modelConfigured: z.boolean(),
  workspaceTrusted: z.boolean(),
  /** A configuration problem in words (bad settings file, missing key), or null. */
  problem: z.string().nullable(),
  /** Absent when the core could not start (the problem says why). */
  endpoint: endpointSummarySchema.optional(),
  /**
   * Which of the OS sandbox's protections commands run without here (no bubblewrap, the
   * setting off, macOS Seatbelt untested, no seccomp filter), in words; absent when all hold.
   */
  sandbox: z.string().max(4000).optional(),
  /** The custom agents there are, for the composer's agent picker; absent when there are none. */
  agents: z.array(agentEntrySchema).max(1000).optional(),
});

/** The conversation in view; id null before the first message of a new session. */
export const sessionInfoSchema = z.strictObject({
  id: z.string().nullable(),
  title: z.string().nullable(),
  /** Set when this window may only read the conversation: why (another window is writing it). */
  readOnly: z.string().optional(),
  /** The git branch of the worktree the conversation works in (New Chat in Worktree). */
  branch: z.string().min(1).max(300).optional(),
});

/** One row of the history list. Times are epoch milliseconds. */
export const sessionSummarySchema = z.strictObject({
  id: z.string().min(1),
  title: z.string(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  messageCount: z.number().int().nonnegative(),
  /** Start of the first user message. */
  preview: z.string().optional(),
  /** Tokens spent over the whole conversation (input + output, abandoned branches included). */
  tokens: z.number().int().nonnegative().optional(),
  /** The branch of the git worktree the conversation works in. */
  branch: z.string().min(1).max(300).optional(),
  /** What this window's conversation with this id is doing (absent: idle). */
  activity: conversationActivitySchema.optional(),
});

/**
 * Everything the webview needs to draw itself from nothing. Sent on every `ready` and
 * when the whole conversation changes (new or resumed session); never for small changes.
 */
/** A rules file the agent follows (AGENTS.md, CLAUDE.md, .keel/rules/*.md), for "Rules in effect". */
export const ruleInEffectSchema = z.strictObject({
  /** Relative to its workspace folder, or `~keel/AGENTS.md` for the person's global one. */
  display: z.string().min(1),
  scope: z.enum(['global', 'workspace', 'nested']),
  /** For nested rules: the folder whose files they govern. */
  appliesTo: z.string().optional(),
  /** For the other agents' scoped rules: always, for matching files, or listed by description. */
  trigger: z.enum(['always', 'files', 'described']).optional(),
  /** For `files`: the glob and the file that matched it. */
  matched: z.strictObject({ glob: z.string(), file: z.string() }).optional(),
  /**
   * cut: only its start fit the rules budget; omitted: the budget was used up before it;
   * listed: named with its description for the model to read when it fits.
   */
  status: z.enum(['included', 'cut', 'omitted', 'listed']),
});

/** The oldest part of the conversation was left out of a request so it fits the model's window. */
export const contextTrimmedSchema = z.strictObject({
  attempt: z.number().int().min(1),
  maxAttempts: z.number().int().min(1),
  droppedMessages: z.number().int().nonnegative(),
  shortenedResults: z.number().int().nonnegative(),
});

/** One workspace folder as a project of the conversation (multi-root): what its files and git say. */
export const workspaceProjectInfoSchema = z.strictObject({
  name: z.string().min(1),
  path: z.string().min(1),
  /** "TypeScript (Node.js)", "Go", "Python + Go"; null when nothing was recognised. */
  type: z.string().nullable(),
  /** The checked-out branch (or "detached at <sha>"); null outside git. */
  branch: z.string().nullable(),
});

/** The workspace's projects and the conversation's current one (by name). */
export const workspaceProjectsSchema = z.strictObject({
  projects: z.array(workspaceProjectInfoSchema),
  current: z.string().min(1),
});

export const snapshotSchema = z.strictObject({
  session: sessionInfoSchema,
  messages: z.array(uiMessageSchema),
  state: runStateSchema,
  usage: usageSchema.nullable(),
  pendingApprovals: z.array(toolApprovalRequestSchema),
  todos: z.array(todoItemSchema),
  config: configSummarySchema,
  /** The rules files of the latest request; absent until one ran. */
  rules: z.array(ruleInEffectSchema).optional(),
  /** The workspace folders as projects and the current one; absent until the core started. */
  workspaceProjects: workspaceProjectsSchema.optional(),
  /** The conversation's newest plan; absent when it has none. */
  plan: planInfoSchema.optional(),
  /** A long conversation comes with its recent part: how many earlier messages `session.loadEarlier` would add. */
  earlierMessages: z.number().int().positive().optional(),
});

/** Error codes the UI can act on (e.g. offer "Configure model"); `internal` for the rest. */
export const uiErrorCodeSchema = z.enum([
  'model_not_configured',
  'model_unreachable',
  'auth_failed',
  'rate_limited',
  'context_too_long',
  'invalid_config',
  'workspace_untrusted',
  'tool_failed',
  'version_mismatch',
  'internal',
]);

export const uiErrorSchema = z.strictObject({
  code: uiErrorCodeSchema,
  /** Says what happened and what to do; never contains secrets. */
  message: z.string().min(1),
  /** True when sending again may succeed (network blips, rate limits). */
  retryable: z.boolean(),
});

export type AgentMode = z.infer<typeof agentModeSchema>;
export type ApprovalMode = z.infer<typeof approvalModeSchema>;
export type RunState = z.infer<typeof runStateSchema>;
export type ReasoningChoiceValue = z.infer<typeof reasoningChoiceSchema>;
export type ModelReasoningInfo = z.infer<typeof modelReasoningSchema>;
export type AgentEntry = z.infer<typeof agentEntrySchema>;
export type Usage = z.infer<typeof usageSchema>;
export type TodoItem = z.infer<typeof todoItemSchema>;
export type ConfigSummary = z.infer<typeof configSummarySchema>;
export type EndpointSummary = z.infer<typeof endpointSummarySchema>;
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export type Snapshot = z.infer<typeof snapshotSchema>;
export type RuleInEffectInfo = z.infer<typeof ruleInEffectSchema>;
export type ContextTrimmed = z.infer<typeof contextTrimmedSchema>;
export type WorkspaceProjectInfo = z.infer<typeof workspaceProjectInfoSchema>;
export type WorkspaceProjects = z.infer<typeof workspaceProjectsSchema>;
export type UiErrorCode = z.infer<typeof uiErrorCodeSchema>;
export type UiError = z.infer<typeof uiErrorSchema>;
