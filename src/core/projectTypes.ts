import type { ModelMessage, UserContent } from 'ai';
import type { TokenUsage } from './model/tokenUsage';
import type { ApprovalMode } from './config/configSchema';
import type { ContextParts } from './contextParts';
import type { JournalEntry } from './journal/changeJournal';
import type { RuleInEffect } from './llmsContext/contextTypes';
import type { CommandChange } from './session/sessionRecords';
import type { LoopError, LoopEvent, LoopStatus } from './loop/loopTypes';
import type { Mention, MentionOutcome } from './mentions/mentionTypes';
import type { ResolvedModel } from './model/modelRegistry';
import type { RuleEventName } from './rules/ruleSchema';
import type { FiredRule } from './rules/ruleTypes';
import type { RunMode } from './plugins/pluginTypes';
import type { PlanRecord } from './session/sessionRecords';
import type { RunTurn } from './runQueue';
import type { ApprovalAnswer, ApprovalRequest, ToolCategory, ToolProgress } from './tools/tool';
import type { CompactionReason } from './compaction/compactor';

export type ProjectEvent =
  | Exclude<LoopEvent, { type: 'message' | 'turn_start' | 'usage' }>
  /**
   * One model call's tokens. `messageId`: the answer it wrote (its log id); `contextParts`: what
   * filled the window, adding up to its input and output tokens.
   */
  | ({ type: 'usage'; turn: number; messageId?: string; contextParts?: ContextParts } & TokenUsage)
  /** `messageId`: the log id the turn's answer will be written under. */
  | { type: 'turn_start'; turn: number; messageId?: string }
  /** `at`: when the log recorded it (epoch ms), the time a view shows for it. */
  | { type: 'message'; id: string; message: ModelMessage; partial?: boolean; at?: number }
  | {
      type: 'approval';
      toolCallId: string;
      name: string;
      category: ToolCategory;
      approved: boolean;
      /** True when a rule decided without asking. */
      automatic: boolean;
      rule: string;
      reason?: string;
    }
  /** A file change was applied and recorded in the change journal (it can be undone). */
  | { type: 'file_change'; change: JournalEntry; warning?: string }
  /** The files a command (bash) added, modified and deleted, from snapshots taken around it (they can be undone). */
  | { type: 'command_changes'; toolCallId: string; changes: CommandChange[]; warning?: string }
  /** The workspace context gathered for this request: its sections' sizes and the rules in effect. */
  | { type: 'context'; sections: ContextSectionInfo[]; rules: RuleInEffect[] }
  /** What the message's @-mentions expanded to (included, cut, left out, failed). */
  | { type: 'mentions'; outcomes: MentionOutcome[] }
  /** Event rules fired for one conversation event (src/core/rules); `notify` actions are for the person. */
  | { type: 'rules_fired'; event: RuleEventName; fired: FiredRule[]; toolCallId?: string }
  /** Rules files or rules that could not be used (each names its file and rule); the others still apply. */
  | { type: 'rule_problems'; problems: string[] }
  /** Output of a running tool as it arrives (commands), for a live view. */
  | { type: 'tool_output'; toolCallId: string; text: string }
  /** The latest progress a running tool reported (MCP progress notifications). */
  | { type: 'tool_progress'; toolCallId: string; progress: ToolProgress }
  /** A step of a subagent the `task` call `parentToolCallId` started (its calls carry ids of their own). */
  | { type: 'subagent'; parentToolCallId: string; agent: string; step: SubagentStep }
  /** What the subagent the `task` call `parentToolCallId` started has used so far (also counted into the run's usage). */
  | { type: 'subagent_usage'; parentToolCallId: string; usage: SubagentUsage }
  /** The older part of the conversation is being summarized / was / could not be (see compaction/). */
  | CompactionEvent;

/** A subagent's model calls so far: tokens, and the cost while every call's model had a price. */
export type SubagentUsage = TokenUsage & { costUsd?: number };

/** What a subagent did, as its parent's card lists it. */
export type SubagentStep =
  | { kind: 'tool_use'; toolCallId: string; name: string; input: unknown; title?: string; summary?: string }
  | { kind: 'tool_result'; toolCallId: string; isError: boolean; output: string }
  | { kind: 'text'; text: string };

export type CompactionEvent =
  /** `id`: the id the compaction record will have. */
  | { type: 'compaction'; phase: 'start'; reason: CompactionReason; id?: string }
  | {
      type: 'compaction';
      phase: 'done';
      reason: CompactionReason;
      /** The compaction record's id. */
      id: string;
      /** When the log recorded it (epoch ms). */
      at?: number;
      summary: string;
      compactedMessages: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  | { type: 'compaction'; phase: 'failed'; reason: CompactionReason; error: string };

export interface ContextSectionInfo {
  id: string;
  title: string;
  tokens: number;
  budget: number;
  cut: boolean;
}

export interface RunOptions {
  /** Aborts the run; without it, the signal of `turn`. */
  signal?: AbortSignal;
  /**
   * The turn of the conversation's queue the caller's own queued run holds (the chat queues the
   * person's messages in it): the run goes on in that turn instead of waiting behind it.
   */
  turn?: RunTurn;
  onEvent?(event: ProjectEvent): void;
  /** Asks the person. Without it, anything that needs approval is denied. */
  onToolApprove?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** A model id for this run instead of the configured one. */
  model?: string;
  /**
   * A custom agent (its definition's name) this run works as: its prompt joins the system
   * prompt, its `tools:` narrow what the run is offered (never widen, never approve). Keep it
   * the same for every run of a conversation: the system prompt is fixed per conversation.
   */
  agent?: string;
  /** The model the host resolved for this message already (used as is; `model` is then ignored). */
  resolvedModel?: ResolvedModel;
  /** The id the host gave the person's message: the log keeps it, so view and log name the message alike. */
  messageId?: string;
  maxTurns?: number;
  /**
   * The person's @-mentions: expanded into a text part of the user message (so the session
   * log holds exactly what the model saw) and listed in the message's meta.
   */
  mentions?: readonly Mention[];
}

export interface RunResult {
  status: LoopStatus;
  sessionId: string;
  mode: RunMode;
  turns: number;
  /** The run's tokens, and their cost in US dollars when the model's price is known. */
  usage: TokenUsage & { costUsd?: number };
  contextTokens: number;
  text: string;
  error?: LoopError;
  /** The plan a plan-mode run presented (its final answer), as recorded in the session. */
  plan?: PlanRecord;
}

export type UserInput = string | UserContent;

export type { ApprovalMode, RunMode };
