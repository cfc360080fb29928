import type { ModelMessage } from 'ai';
import { errorMessage } from '../errors';
import { parseRecord } from './logReader';
import type { LogWriter } from './logWriter';
import { toJsonValue } from './messageCodec';
import { SessionReadOnlyError } from './sessionErrors';
import { branchPoints, leafThrough } from './sessionBranches';
import type { BranchPoint } from './sessionBranches';
import { newMessageId } from './sessionIds';
import type { SessionLock } from './sessionLock';
import type { ChangeRecord, ConfigKey, ConfigValues, MessageMeta, SessionHeaderRecord } from './sessionRecords';
import type { SessionConfig, SessionState, UsageTotals } from './sessionState';
import { summarize, summaryPath, writeSummary } from './sessionSummary';
import type { SessionSummary } from './sessionSummary';

/** One step of the active branch, as the UI shows it. */
export type SessionEntry =
  | { kind: 'message'; id: string; parentId: string | null; ts: string; message: ModelMessage; meta?: MessageMeta }
  /** Stands after the last message it summarizes; `history()` sends the summary instead of those messages. */
  | { kind: 'compaction'; id: string; ts: string; summary: string; replacesUpTo: string };

export interface UsageInput {
  inputTokens: number;
  outputTokens: number;
  model?: string;
}

export interface SessionInit {
  id: string;
  path: string;
  state: SessionState;
  warnings: string[];
  /** Present when this process holds the lock; absent for a read-only session. */
  writer?: LogWriter;
  lock?: SessionLock;
  readOnlyReason?: string;
  onWarning: (message: string) => void;
}

/**
 * One conversation: its log on disk and the state folded from it. Made by SessionStore.
 * Every change is a record appended to the log; nothing already written is rewritten.
 */
export class Session {
  readonly id: string;
  readonly path: string;
  /** Lines skipped or repaired while loading, each naming its line number. */
  readonly warnings: readonly string[];
  /** Why appends are refused (another process is writing it, or it was opened read-only). */
  readonly readOnlyReason: string | undefined;
  private readonly state: SessionState;
  private readonly writer: LogWriter | undefined;
  private readonly lock: SessionLock | undefined;
  private readonly onWarning: (message: string) => void;
  private closed = false;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.path = init.path;
    this.state = init.state;
    this.warnings = init.warnings;
    this.writer = init.writer;
    this.lock = init.lock;
    this.onWarning = init.onWarning;
    this.readOnlyReason = init.writer ? undefined : (init.readOnlyReason ?? 'it was opened read-only');
  }

  get readOnly(): boolean {
    return this.writer === undefined;
  }

  get header(): SessionHeaderRecord | undefined {
    return this.state.header;
  }

  /** The message the next append follows; null before the first message (or after a fork to the start). */
  get leafId(): string | null {
    return this.state.leafId;
  }

  /** Appends a message under the current leaf and makes it the leaf. Returns its id. */
  appendMessage(message: ModelMessage, meta?: MessageMeta): string {
    const id = newMessageId();
    const record: Record<string, unknown> = { type: 'message', ts: now(), id, parentId: this.state.leafId, message };
    if (meta !== undefined) record.meta = meta;
    this.append(record);
    return id;
  }

  appendConfig<K extends ConfigKey>(key: K, value: ConfigValues[K]): void {
    this.append({ type: 'config', ts: now(), key, value });
  }

  appendUsage(usage: UsageInput): void {
    const record: Record<string, unknown> = { type: 'usage', ts: now(), inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
    if (usage.model !== undefined) record.model = usage.model;
    this.append(record);
  }

  /** Records a file change Keel applied (the change journal); returns the record as stored. */
  appendChange(change: Omit<ChangeRecord, 'type' | 'ts' | 'id'>): ChangeRecord {
    const record: ChangeRecord = { type: 'change', ts: now(), id: newMessageId(), ...change };
    this.append({ ...record });
    return record;
  }

  /** Records that these journal changes were put back to their before content. */
  appendRevert(changeIds: readonly string[], forced: boolean): void {
    const record: Record<string, unknown> = { type: 'revert', ts: now(), changeIds: [...changeIds] };
    if (forced) record.forced = true;
    this.append(record);
  }

  /** The change journal in the order the changes were applied. */
  changes(): readonly ChangeRecord[] {
    return this.state.changes;
  }

  isReverted(changeId: string): boolean {
    return this.state.revertedChanges.has(changeId);
  }

  /**
   * Records that `summary` stands for the active branch up to and including `replacesUpTo`.
   * `history()` then starts with the summary (as a user message). Returns the compaction's id.
   */
  appendCompaction(summary: string, replacesUpTo: string): string {
    if (!this.state.nodes.has(replacesUpTo)) throw new Error(`cannot compact session ${this.id}: no message ${replacesUpTo}`);
    const id = newMessageId();
    this.append({ type: 'compaction', ts: now(), id, summary, replacesUpTo });
    return id;
  }

  /**
   * Makes `fromMessageId` the leaf, so the next message branches from there (null: the next
   * message starts a new root, as when the first prompt is edited). The old branch stays in the log.
   */
  fork(fromMessageId: string | null): void {
    if (fromMessageId !== null && !this.state.nodes.has(fromMessageId)) {
      throw new Error(`cannot fork session ${this.id}: no message ${fromMessageId}`);
    }
    this.append({ type: 'branch', ts: now(), leafId: fromMessageId });
  }

  /** For each message of the active branch that has alternatives (an edited prompt), which one it is. */
  branchPoints(): Map<string, BranchPoint> {
    return branchPoints(this.state.nodes, this.state.branch());
  }

  /** Makes the branch through `messageId` active again, where its conversation stopped. */
  switchBranch(messageId: string): void {
    if (!this.state.nodes.has(messageId)) throw new Error(`cannot switch session ${this.id}: no message ${messageId}`);
    this.fork(leafThrough(this.state.nodes, messageId));
  }

  /** The parent of a message (null for a root): where "Edit and resend" of it forks from. */
  parentOf(messageId: string): string | null {
    const node = this.state.nodes.get(messageId);
    if (!node) throw new Error(`session ${this.id} has no message ${messageId}`);
    return node.parentId;
  }

  /**
   * The messages to send to the model: the active branch, with the latest applicable compaction's
   * summary in place of what it replaced. A new array each call; the messages inside are shared
   * with the session and must not be mutated.
   */
  history(): ModelMessage[] {
    const branch = this.state.branch();
    const active = this.state.activeCompaction(branch);
    if (!active) return branch.map((n) => n.message);
    const rest = branch.slice(active.index + 1).map((n) => n.message);
    return [{ role: 'user', content: active.compaction.summary }, ...rest];
  }

  /** The whole active branch with ids and meta (compacted messages included), for display. */
  entries(): SessionEntry[] {
    const branch = this.state.branch();
    const out: SessionEntry[] = branch.map((n) => {
      const entry: SessionEntry = { kind: 'message', id: n.id, parentId: n.parentId, ts: n.ts, message: n.message };
      if (n.meta) entry.meta = n.meta;
      return entry;
    });
    const active = this.state.activeCompaction(branch);
    if (active) {
      const { id, ts, summary, replacesUpTo } = active.compaction;
      out.splice(active.index + 1, 0, { kind: 'compaction', id, ts, summary, replacesUpTo });
    }
    return out;
  }

  config(): SessionConfig {
    return this.state.config();
  }

  usageTotals(): UsageTotals {
    return { ...this.state.usage };
  }

  summary(): SessionSummary {
    return summarize(this.id, this.state, this.state.header?.ts ?? now());
  }

  /** Stops writing and releases the lock. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.writer?.close();
    } finally {
      this.lock?.release();
    }
  }

  private append(raw: Record<string, unknown>): void {
    if (this.closed) throw new SessionReadOnlyError(this.id, 'it was closed');
    if (!this.writer) throw new SessionReadOnlyError(this.id, this.readOnlyReason ?? 'it was opened read-only');
    // Validated with the reader's own schema, so whatever is written reads back.
    const parsed = parseRecord(toJsonValue(raw, String(raw.type)));
    if ('problem' in parsed) throw new TypeError(`cannot append to session ${this.id}: ${parsed.problem}`);
    this.writer.append(parsed.record);
    const warning = this.state.apply(parsed.record);
    if (warning) this.onWarning(`session ${this.id}: ${warning}`);
    this.refreshSummary(this.writer.bytes);
  }

  private refreshSummary(logBytes: number): void {
    try {
      writeSummary(summaryPath(this.path), this.summary(), logBytes);
    } catch (err) {
      // The log already holds the record; a missing or stale summary is rebuilt by the next listing.
      this.onWarning(`session ${this.id}: could not update its listing summary: ${errorMessage(err)}`);
    }
  }
}

function now(): string {
  return new Date().toISOString();
}
