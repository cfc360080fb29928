import * as l10n from '@vscode/l10n';
import { tokensOf } from '../model/tokenUsage';
import type { TokenUsage } from '../model/tokenUsage';
import type { ModelMessage } from 'ai';
import { errorMessage } from '../errors';
import { parseRecord } from './logReader';
import type { LogWriter } from './logWriter';
import { toLoggedJson } from './messageCodec';
import { interruptionOf } from './interruptedRun';
import { compactionNote, interruptionNote, withLeadingNote } from './modelNotes';
import { SessionReadOnlyError } from './sessionErrors';
import { branchPoints, leafThrough } from './sessionBranches';
import type { BranchPoint } from './sessionBranches';
import { newMessageId } from './sessionIds';
import type { SessionLock } from './sessionLock';
import type { ChangeRecord, CompactionRecord, ConfigKey, ConfigValues, MessageMeta, PlanRecord, RulesRecord, RunRecord, SessionHeaderRecord, SnapshotRecord } from './sessionRecords';
import type { SessionConfig, SessionState, UsageTotals } from './sessionState';
import { summarize, summaryPath, writeSummary } from './sessionSummary';
import type { SessionSummary } from './sessionSummary';

/** One step of the active branch, as the UI shows it. */
export type SessionEntry =
  | {
      kind: 'message';
      id: string;
      parentId: string | null;
      ts: string;
      message: ModelMessage;
      meta?: MessageMeta;
      /** Keel stopped mid-run right after this message: what was cut (the view shows it below the message). */
      interruption?: { ts: string; note: string };
    }
  /**
   * Stands where the compaction ran (after `at`, or after the last message it summarizes in
   * older logs); `history()` sends the summary instead of the messages up to `replacesUpTo`.
   */
  | { kind: 'compaction'; id: string; ts: string; summary: string; replacesUpTo: string; messages?: number; reason?: CompactionRecord['reason'] };

export interface UsageInput extends TokenUsage {
  model?: string;
  /** The message the call was for (its answer, a compaction's id). */
  messageId?: string;
  /** What the call cost in US dollars, when the model's price is known. */
  costUsd?: number;
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
  /** Set when opening this session closed a run that Keel did not live to finish: what was cut. */
  recovered: string | undefined;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.path = init.path;
    this.state = init.state;
    this.warnings = init.warnings;
    this.writer = init.writer;
    this.lock = init.lock;
    this.onWarning = init.onWarning;
    this.readOnlyReason = init.writer ? undefined : (init.readOnlyReason ?? l10n.t('it was opened read-only'));
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

  /**
   * Appends a message under the current leaf and makes it the leaf. Returns its id: `id` when
   * given (the host's id for the person's message, so the view and the log name it alike).
   */
  appendMessage(message: ModelMessage, meta?: MessageMeta, id: string = newMessageId()): string {
    if (this.state.nodes.has(id)) throw new Error(`session ${this.id} has a message ${id} already`);
    const record: Record<string, unknown> = { type: 'message', ts: now(), id, parentId: this.state.leafId, message };
    if (meta !== undefined) record.meta = meta;
    this.append(record);
    return id;
  }

  /**
   * When the message or compaction `id` was written (epoch milliseconds): the one time a view
   * shows for it, live as after a reload.
   */
  writtenAt(id: string): number {
    const ts = this.state.nodes.get(id)?.ts ?? this.state.compactions.find((c) => c.id === id)?.ts;
    if (ts === undefined) throw new Error(`session ${this.id} has no message or compaction ${id}`);
    return Date.parse(ts);
  }

  appendConfig<K extends ConfigKey>(key: K, value: ConfigValues[K]): void {
    this.append({ type: 'config', ts: now(), key, value });
  }

  appendUsage(usage: UsageInput): void {
    const record: Record<string, unknown> = { type: 'usage', ts: now(), ...tokensOf(usage) };
    if (usage.model !== undefined) record.model = usage.model;
    if (usage.messageId !== undefined) record.messageId = usage.messageId;
    if (usage.costUsd !== undefined) record.costUsd = usage.costUsd;
    this.append(record);
  }

  /** Records a file change Keel applied (the change journal); returns the record as stored. */
  appendChange(change: Omit<ChangeRecord, 'type' | 'ts' | 'id'>): ChangeRecord {
    const record: ChangeRecord = { type: 'change', ts: now(), id: newMessageId(), ...change };
    this.append({ ...record });
    return record;
  }

  /** Records the files a command changed (between its snapshots); returns the record as stored. */
  appendSnapshot(snapshot: Omit<SnapshotRecord, 'type' | 'ts' | 'id'>): SnapshotRecord {
    const record: SnapshotRecord = { type: 'snapshot', ts: now(), id: newMessageId(), ...snapshot };
    this.append({ ...record });
    return record;
  }

  /** Journal changes and command snapshots together, in the order they happened. */
  fileHistory(): ReadonlyArray<ChangeRecord | SnapshotRecord> {
    return this.state.fileHistory;
  }

  /** Records that these journal changes were put back to their before content. */
  appendRevert(changeIds: readonly string[], forced: boolean): void {
    const record: Record<string, unknown> = { type: 'revert', ts: now(), changeIds: [...changeIds] };
    if (forced) record.forced = true;
    this.append(record);
  }

  /** Records the event rules that fired for one event. */
  appendRules(record: Omit<RulesRecord, 'type' | 'ts'>): void {
    this.append({ type: 'rules', ts: now(), ...record });
  }

  /** Event rules that fired in this conversation, oldest first. */
  rulesFired(): readonly RulesRecord[] {
    return this.state.rulesFired;
  }

  /** Records a plan's text and status (a new plan, an edit, its execution); returns the record as stored. */
  appendPlan(plan: Omit<PlanRecord, 'type' | 'ts'>): PlanRecord {
    const record: PlanRecord = { type: 'plan', ts: now(), ...plan };
    this.append({ ...record });
    return record;
  }

  /** The plans of this conversation (latest state of each), oldest first. */
  plans(): readonly PlanRecord[] {
    return [...this.state.plans.values()];
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
  appendCompaction(summary: string, replacesUpTo: string, opts: { messages?: number; id?: string; reason?: CompactionRecord['reason'] } = {}): string {
    if (!this.state.nodes.has(replacesUpTo)) throw new Error(`cannot compact session ${this.id}: no message ${replacesUpTo}`);
    const id = opts.id ?? newMessageId();
    const record: Record<string, unknown> = { type: 'compaction', ts: now(), id, summary, replacesUpTo };
    if (this.state.leafId !== null) record.at = this.state.leafId;
    if (opts.messages !== undefined) record.messages = opts.messages;
    if (opts.reason !== undefined) record.reason = opts.reason;
    this.append(record);
    return id;
  }

  /** Marks the start of a run; `endRun` marks its end. A start without an end is how a crash shows. */
  startRun(): void {
    this.append({ type: 'run', ts: now(), event: 'start' });
  }

  endRun(status: Exclude<NonNullable<RunRecord['status']>, 'interrupted'>): void {
    this.append({ type: 'run', ts: now(), event: 'end', status });
  }

  /** A run was going when the process that wrote this log stopped (only the lock holder can tell it is over). */
  get interruptedRun(): boolean {
    return this.state.runOpen;
  }

  /**
   * Closes a run that Keel did not live to finish: tool calls left without results get one
   * saying so (the model needs a result for every call), and an `interrupted` end records
   * what was cut, for the view and the model. Returns that note, or undefined when no run was open.
   */
  recoverInterruptedRun(): string | undefined {
    if (!this.state.runOpen) return undefined;
    const { what, closing } = interruptionOf(this.state.branch().at(-1));
    if (closing) this.appendMessage(closing, { partial: true });
    if (what === undefined) {
      this.append({ type: 'run', ts: now(), event: 'end', status: 'completed' });
      return undefined;
    }
    const note = interruptionNote(what);
    this.recovered = note;
    this.append({ type: 'run', ts: now(), event: 'end', status: 'interrupted', leafId: this.state.leafId, note });
    return note;
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
    const out: ModelMessage[] = active ? [{ role: 'user', content: compactionNote(active.compaction.summary) }] : [];
    const notes = this.interruptionNotes();
    let pending: string | undefined;
    for (let i = active ? active.index + 1 : 0; i < branch.length; i++) {
      const node = branch[i]!;
      if (pending !== undefined && node.message.role === 'user') {
        out.push(withLeadingNote(node.message, pending));
        pending = undefined;
      } else out.push(node.message);
      const note = notes?.get(node.id);
      if (note !== undefined) pending = pending === undefined ? note : `${pending}\n${note}`;
    }
    if (pending !== undefined) out.push({ role: 'user', content: pending });
    return out;
  }

  /**
   * What a new compaction would work on: the summary in force (if any) and the messages of the
   * active branch after what it replaced, with their interruption notes.
   */
  uncompacted(): { summary?: string; messages: Extract<SessionEntry, { kind: 'message' }>[] } {
    const branch = this.state.branch();
    const active = this.state.activeCompaction(branch);
    const notes = this.interruptionNotes();
    const messages = branch.slice(active ? active.index + 1 : 0).map((n) => {
      const entry: Extract<SessionEntry, { kind: 'message' }> = { kind: 'message', id: n.id, parentId: n.parentId, ts: n.ts, message: n.message };
      if (n.meta) entry.meta = n.meta;
      const note = notes?.get(n.id);
      if (note !== undefined) entry.interruption = { ts: n.ts, note };
      return entry;
    });
    return active ? { summary: active.compaction.summary, messages } : { messages };
  }

  private interruptionNotes(): Map<string, string> | undefined {
    if (this.state.interruptions.length === 0) return undefined;
    const out = new Map<string, string>();
    for (const r of this.state.interruptions) if (r.leafId && r.note) out.set(r.leafId, r.note);
    return out;
  }

  /** The whole active branch with ids and meta (compacted messages included), for display. */
  entries(): SessionEntry[] {
    const branch = this.state.branch();
    const cuts = this.state.interruptions.length ? new Map(this.state.interruptions.map((r) => [r.leafId ?? '', r])) : undefined;
    const out: SessionEntry[] = branch.map((n) => {
      const entry: SessionEntry = { kind: 'message', id: n.id, parentId: n.parentId, ts: n.ts, message: n.message };
      if (n.meta) entry.meta = n.meta;
      const cut = cuts?.get(n.id);
      if (cut?.note) entry.interruption = { ts: cut.ts, note: cut.note };
      return entry;
    });
    const active = this.state.activeCompaction(branch);
    if (active) {
      const { id, ts, summary, replacesUpTo, at, messages, reason } = active.compaction;
      // Shown where it ran; messages kept after the summary stay above it, as they were read.
      const atIndex = at === undefined ? -1 : branch.findIndex((n) => n.id === at);
      const entry: SessionEntry = { kind: 'compaction', id, ts, summary, replacesUpTo };
      if (messages !== undefined) entry.messages = messages;
      if (reason !== undefined) entry.reason = reason;
      out.splice((atIndex >= active.index ? atIndex : active.index) + 1, 0, entry);
    }
    return out;
  }

  config(): SessionConfig {
    return this.state.config();
  }

  usageTotals(): UsageTotals {
    return { ...this.state.usage };
  }

  /** What the model calls for one message used (its answer's turn, a compaction), or undefined. */
  messageUsage(id: string): UsageTotals | undefined {
    const tally = this.state.messageUsage.get(id);
    return tally ? { ...tally.totals } : undefined;
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
    const parsed = parseRecord(toLoggedJson(raw, String(raw.type)));
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
