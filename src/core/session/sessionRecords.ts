import type { ModelMessage } from 'ai';
import * as z from 'zod';
import { approvalModes } from '../config/configSchema';
import type { ApprovalMode } from '../config/configSchema';
import { mentionNoteSchema, mentionSchema } from '../mentions/mentionTypes';
import { decodeMessage } from './messageCodec';

/**
 * The session log: one JSON object per line, appended and never rewritten.
 * Every record has `type` and `ts` (ISO time). Readers skip records whose `type` they do not
 * know (a newer Keel wrote them) with a warning, so new record kinds never break old builds.
 *
 * Messages form a tree through `parentId`: the active branch runs from the current leaf (the
 * last appended message, or the leaf named by the latest `branch` record) back to a root.
 * A `compaction` record stands in for the active branch up to and including `replacesUpTo`.
 */
export const SESSION_LOG_VERSION = 1;

const isoTime = z.string().min(1);
const nonEmpty = z.string().min(1);

/** First line of every log. Its `ts` is the session's creation time. */
export const sessionHeaderSchema = z.object({
  type: z.literal('session'),
  ts: isoTime,
  version: z.number().int().positive(),
  id: nonEmpty,
  workspaceRoot: nonEmpty,
  workspaceFile: nonEmpty.optional(),
  workspaceKey: nonEmpty,
  cwd: nonEmpty,
});
export type SessionHeaderRecord = z.output<typeof sessionHeaderSchema>;

export const messageMetaSchema = z.object({
  model: z.string().optional(),
  turn: z.number().int().nonnegative().optional(),
  /** The message was cut short (cancelled, or the stream broke) and holds what arrived. */
  partial: z.literal(true).optional(),
  projectName: z.string().optional(),
  /** A tool message's results: the workspace folders (names) its calls touched. */
  projects: z.array(z.string()).optional(),
  /**
   * A model message's cards for calls to tools that are not built in (MCP, plugins), by call id,
   * as core's ToolPresentation: a reopened conversation draws them as they were drawn live.
   */
  displays: z.record(z.string(), z.unknown()).optional(),
  /** A tool message's `task` results: the subagent each ran and its steps (core's SubagentStep), by the task call's id. */
  subagents: z
    .record(
      z.string(),
      z.object({
        agent: z.string(),
        steps: z.array(z.record(z.string(), z.unknown())),
        /** What the subagent's model calls used (core's SubagentUsage; the view checks it). */
        usage: z.record(z.string(), z.number()).optional(),
      }),
    )
    .optional(),
  /** A tool message's results for calls the person declined (they never ran). */
  declined: z.array(z.string()).optional(),
  /** A user message's @-mentions; their expansion is a text part of the message itself. */
  mentions: z.array(mentionSchema).optional(),
  /** Mentions that were cut for the budget, left out or failed, with why. */
  mentionNotes: z.array(mentionNoteSchema).optional(),
  /**
   * A user message's workspace context: the sections it showed the model, by id, each as a hash
   * of its text ('' for one no longer in effect). The next message shows only what differs.
   */
  context: z.record(z.string(), z.string()).optional(),
  /** A message Keel added to carry event rules' reminders and context (not the person's words). */
  rules: z.literal(true).optional(),
});
export type MessageMeta = z.output<typeof messageMetaSchema>;

const partSchema = z.looseObject({ type: nonEmpty });
const partsOrText = z.union([z.string(), z.array(partSchema)]);

/**
 * A structural check only (role and content shape), not the AI SDK's full message schema:
 * the messages were produced by the SDK in the first place, and the full schema costs about
 * 130 ms per 10,000 messages, which alone would blow the resume budget.
 */
export const storedMessageSchema = z
  .discriminatedUnion('role', [
    z.looseObject({ role: z.literal('system'), content: z.string() }),
    z.looseObject({ role: z.literal('user'), content: partsOrText }),
    z.looseObject({ role: z.literal('assistant'), content: partsOrText }),
    z.looseObject({ role: z.literal('tool'), content: z.array(partSchema) }),
  ])
  .transform((m): ModelMessage => decodeMessage(m));

export const messageRecordSchema = z.object({
  type: z.literal('message'),
  ts: isoTime,
  id: nonEmpty,
  /** The message this one answers or follows; null for a root. Several children = a fork. */
  parentId: nonEmpty.nullable(),
  message: storedMessageSchema,
  meta: messageMetaSchema.optional(),
});
export type MessageRecord = z.output<typeof messageRecordSchema>;

/**
 * Value type of each config key. `allowTool`/`revokeTool` add/remove one tool of the session
 * allow-list; `allowCommand` adds a command prefix (`npm test`) that runs without asking.
 */
export interface ConfigValues {
  approvalMode: ApprovalMode;
  title: string;
  model: string;
  allowTool: string;
  revokeTool: string;
  allowCommand: string;
  /** The conversation's current project: a workspace folder's real path (multi-root). */
  currentProject: string;
  /** The git worktree the conversation works in (made for it by "New Chat in Worktree"). */
  worktree: { path: string; branch: string; base: string; repo: string };
  /** The custom agent the conversation works as (its name); '' for none. */
  agent: string;
}
export type ConfigKey = keyof ConfigValues;

const configValueSchemas: { [K in ConfigKey]: z.ZodType<ConfigValues[K]> } = {
  approvalMode: z.enum(approvalModes),
  title: z.string(),
  model: nonEmpty,
  allowTool: nonEmpty,
  revokeTool: nonEmpty,
  allowCommand: nonEmpty,
  currentProject: nonEmpty,
  worktree: z.object({ path: nonEmpty, branch: nonEmpty, base: nonEmpty, repo: nonEmpty }),
  agent: z.string(),
};

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(configValueSchemas, key);
}

export const configRecordSchema = z.discriminatedUnion('key', [
  configVariant('approvalMode'),
  configVariant('title'),
  configVariant('model'),
  configVariant('allowTool'),
  configVariant('revokeTool'),
  configVariant('allowCommand'),
  configVariant('currentProject'),
  configVariant('worktree'),
  configVariant('agent'),
]);
export type ConfigRecord = z.output<typeof configRecordSchema>;

function configVariant<K extends ConfigKey>(key: K) {
  return z.object({ type: z.literal('config'), ts: isoTime, key: z.literal(key), value: configValueSchemas[key] });
}

const tokenCount = z.number().int().nonnegative();

export const usageRecordSchema = z.object({
  type: z.literal('usage'),
  ts: isoTime,
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cachedInputTokens: tokenCount.optional(),
  cacheWriteTokens: tokenCount.optional(),
  reasoningTokens: tokenCount.optional(),
  model: z.string().optional(),
  /** The message the call was for: a turn's answer, a compaction; absent in older logs. */
  messageId: nonEmpty.optional(),
  /** US dollars, from the model's price when it was known. */
  costUsd: z.number().nonnegative().optional(),
});
export type UsageRecord = z.output<typeof usageRecordSchema>;

/**
 * `summary` replaces every message of the branch up to and including `replacesUpTo`, so it stays
 * valid for any branch that passes through that message (forks after it keep the summary).
 */
export const compactionRecordSchema = z.object({
  type: z.literal('compaction'),
  ts: isoTime,
  id: nonEmpty,
  summary: z.string(),
  replacesUpTo: nonEmpty,
  /** The leaf when the compaction ran (the view shows the divider there); absent in older logs. */
  at: nonEmpty.optional(),
  /** How many messages of the branch the summary stands for, for the view. */
  messages: z.number().int().nonnegative().optional(),
  /** Why it ran (asked for, automatic, the window overflowed); absent in older logs. */
  reason: z.enum(['manual', 'auto', 'overflow']).optional(),
});
export type CompactionRecord = z.output<typeof compactionRecordSchema>;

/** Moves the leaf: the next message is appended under `leafId` (null: a new root). */
export const branchRecordSchema = z.object({
  type: z.literal('branch'),
  ts: isoTime,
  leafId: nonEmpty.nullable(),
});
export type BranchRecord = z.output<typeof branchRecordSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

/**
 * The change journal: a file change Keel applied, with the content hashes of the file before
 * and after it (null: the file did not exist / was deleted). The before content is kept in
 * the session's blob folder under its hash unless `beforeStored` is false (the journal's size
 * cap was reached), in which case the change cannot be undone from Keel.
 */
export const changeRecordSchema = z.object({
  type: z.literal('change'),
  ts: isoTime,
  id: nonEmpty,
  /** The tool call that made the change. */
  toolCallId: nonEmpty,
  /** Absolute real path. */
  path: nonEmpty,
  displayPath: nonEmpty,
  beforeHash: sha256Hex.nullable(),
  afterHash: sha256Hex.nullable(),
  beforeStored: z.boolean(),
});
export type ChangeRecord = z.output<typeof changeRecordSchema>;

const gitOid = z.string().regex(/^[0-9a-f]{40}$/, 'a git object id');
const gitFileState = z.object({ oid: gitOid, mode: z.enum(['100644', '100755', '120000']) });

/** One file a command changed, between the snapshots taken before and after it. */
export const commandChangeSchema = z.object({
  id: nonEmpty,
  /** Absolute path. */
  path: nonEmpty,
  displayPath: nonEmpty,
  kind: z.enum(['added', 'modified', 'deleted']),
  /** null: the file did not exist before / was deleted. */
  before: gitFileState.nullable(),
  after: gitFileState.nullable(),
  /** Lines added and removed; absent for binary, large or unreadable content. */
  added: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
  /** Why the content before the command was not kept (it cannot be put back from Keel). */
  unkept: z.enum(['large', 'binary']).optional(),
});
export type CommandChange = z.output<typeof commandChangeSchema>;

/**
 * The files a command (bash) changed, from snapshots of a workspace folder taken just before
 * and after it: tree ids in Keel's private repository for that folder (`store`).
 */
export const snapshotRecordSchema = z.object({
  type: z.literal('snapshot'),
  ts: isoTime,
  id: nonEmpty,
  toolCallId: nonEmpty,
  /** The workspace folder (absolute). */
  folder: nonEmpty,
  /** The folder of its private repository, relative to the session's snapshot folder. */
  store: nonEmpty,
  before: gitOid,
  after: gitOid,
  changes: z.array(commandChangeSchema),
  /**
   * The person's own commands in Keel's terminals that ran during this command: snapshots cannot
   * tell their changes from the command's, so putting these files back asks first.
   */
  personCommands: z.array(z.string()).optional(),
});
export type SnapshotRecord = z.output<typeof snapshotRecordSchema>;

/** Changes Keel put back to their before content (Undo, Restore files to here). */
export const revertRecordSchema = z.object({
  type: z.literal('revert'),
  ts: isoTime,
  changeIds: z.array(nonEmpty).min(1),
  /** The person chose to revert over changes made since by someone else. */
  forced: z.literal(true).optional(),
});
export type RevertRecord = z.output<typeof revertRecordSchema>;

/**
 * Event rules that fired (see src/core/rules): which event, which rules, and what they did.
 * Kinds are plain strings so a log with event or action kinds from a newer Keel still reads.
 */
export const rulesRecordSchema = z.object({
  type: z.literal('rules'),
  ts: isoTime,
  event: nonEmpty,
  /** The tool call whose result raised a `tool_result` event. */
  toolCallId: nonEmpty.optional(),
  /** Otherwise the conversation's last message when it fired (the prompt, or the answer that ended the task). */
  messageId: nonEmpty.optional(),
  fired: z
    .array(
      z.object({
        id: nonEmpty,
        source: nonEmpty,
        throttleKey: z.string().optional(),
        actions: z.array(z.object({ type: nonEmpty, text: z.string() })),
      }),
    )
    .min(1),
});
export type RulesRecord = z.output<typeof rulesRecordSchema>;

/**
 * A plan made in plan mode, and what became of it. Each record carries the plan's whole text
 * as it stands (plans are short); the latest record of an id is the plan. `messageId` is the
 * assistant message that presented it.
 */
export const planStatuses = ['proposed', 'edited', 'executed', 'refined', 'discarded'] as const;
export const planRecordSchema = z.object({
  type: z.literal('plan'),
  ts: isoTime,
  id: nonEmpty,
  messageId: nonEmpty,
  status: z.enum(planStatuses),
  text: z.string(),
});
export type PlanRecord = z.output<typeof planRecordSchema>;
export type PlanStatus = PlanRecord['status'];

/**
 * A run's start and end. A `start` with no `end` after it means Keel stopped mid-run (the
 * editor or the CLI was killed); the next writer closes it with `end` + `interrupted`, naming
 * the leaf where it was cut so the view and the model are told there.
 */
export const runRecordSchema = z.object({
  type: z.literal('run'),
  ts: isoTime,
  event: z.enum(['start', 'end']),
  status: z.enum(['completed', 'cancelled', 'max_turns', 'error', 'interrupted']).optional(),
  /** With `interrupted`: the last message that was kept (null: none on the branch). */
  leafId: nonEmpty.nullable().optional(),
  /** With `interrupted`: what was cut, in words for the person and the model. */
  note: z.string().optional(),
});
export type RunRecord = z.output<typeof runRecordSchema>;

export const recordSchemas = {
  session: sessionHeaderSchema,
  message: messageRecordSchema,
  config: configRecordSchema,
  usage: usageRecordSchema,
  compaction: compactionRecordSchema,
  branch: branchRecordSchema,
  change: changeRecordSchema,
  revert: revertRecordSchema,
  snapshot: snapshotRecordSchema,
  rules: rulesRecordSchema,
  plan: planRecordSchema,
  run: runRecordSchema,
} as const;
export type RecordType = keyof typeof recordSchemas;

export type SessionRecord =
  | SessionHeaderRecord
  | MessageRecord
  | ConfigRecord
  | UsageRecord
  | CompactionRecord
  | BranchRecord
  | ChangeRecord
  | RevertRecord
  | SnapshotRecord
  | RulesRecord
  | PlanRecord
  | RunRecord;

export function isRecordType(type: string): type is RecordType {
  return Object.hasOwn(recordSchemas, type);
}

/** A subagent's steps as a tool message's meta keeps them (the view reads them as core's SubagentStep, checking each). */
export type LoggedSubagent = NonNullable<MessageMeta['subagents']>[string];
