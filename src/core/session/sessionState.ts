import type { ModelMessage } from 'ai';
import { tokensOf } from '../model/tokenUsage';
import { UsageTally, type UsageTotals } from './usageTally';
import type { ApprovalMode } from '../config/configSchema';
import type { ChangeRecord, CompactionRecord, ConfigValues, MessageMeta, PlanRecord, RulesRecord, RunRecord, SessionHeaderRecord, SessionRecord, SnapshotRecord } from './sessionRecords';
import { isKeelNote } from './keelNotes';

export interface MessageNode {
  id: string;
  parentId: string | null;
  ts: string;
  message: ModelMessage;
  meta?: MessageMeta;
  /** Messages from the root to this one, inclusive. */
  depth: number;
}

/** Latest value of each config key; the allow-list accumulates `allowTool` minus `revokeTool`. */
export interface SessionConfig {
  approvalMode?: ApprovalMode;
  title?: string;
  model?: string;
  allowedTools: ReadonlySet<string>;
  /** Command prefixes allowed for this session ("always allow" on a command). */
  allowedCommands: ReadonlySet<string>;
  /** The current project's folder path, when one was chosen (multi-root). */
  currentProject?: string;
  /** The git worktree the conversation works in. */
  worktree?: ConfigValues['worktree'];
  /** The custom agent the conversation works as; absent for none. */
  agent?: string;
}

export type { UsageTotals } from './usageTally';

const TITLE_MAX = 80;

/**
 * Everything a session log says, folded record by record. Loading a log and appending to a
 * live session go through the same `apply`, so a resumed session equals the one that wrote it.
 */
export class SessionState {
  header?: SessionHeaderRecord;
  readonly nodes = new Map<string, MessageNode>();
  leafId: string | null = null;
  readonly compactions: CompactionRecord[] = [];

  /** Tokens and cost of every model call the log records. */
  get usage(): UsageTotals {
    return this.tally.totals;
  }
  private readonly tally = new UsageTally();
  /** Usage by the message it was for (an answer, a compaction), from records that name one. */
  readonly messageUsage = new Map<string, UsageTally>();
  approvalMode?: ApprovalMode;
  title?: string;
  model?: string;
  currentProject?: string;
  worktree?: ConfigValues['worktree'];
  agent?: string;
  readonly allowedTools = new Set<string>();
  readonly allowedCommands = new Set<string>();
  /** First line of the first user prompt that has text: the title until one is set. */
  promptTitle?: string;
  firstTs?: string;
  lastTs?: string;
  /** The change journal: file changes Keel applied, in order, and the ids of those reverted since. */
  readonly changes: ChangeRecord[] = [];
  readonly revertedChanges = new Set<string>();
  /** Journal changes and command snapshots together, in log order (restore walks them as one history). */
  readonly fileHistory: Array<ChangeRecord | SnapshotRecord> = [];
  /** Event rules that fired, in order (their throttles outlive a reload). */
  readonly rulesFired: RulesRecord[] = [];
  /** Plans made in plan mode: the latest record of each id, in the order the plans were first made. */
  readonly plans = new Map<string, PlanRecord>();
  /** A run started and has not ended: if no live process is writing, Keel stopped mid-run. */
  runOpen = false;
  /** Runs cut short by Keel stopping, in log order (`run` end records with status `interrupted`). */
  readonly interruptions: RunRecord[] = [];
  private lastMessageId: string | null = null;

  /** Folds one record in; returns a warning when the record had to be skipped or repaired. */
  apply(record: SessionRecord, line?: number): string | undefined {
    const at = line === undefined ? '' : `line ${line}: `;
    this.firstTs ??= record.ts;
    this.lastTs = record.ts;
    switch (record.type) {
      case 'session':
        if (this.header) return `${at}a second session header; skipped`;
        this.header = record;
        return undefined;
      case 'message': {
        if (this.nodes.has(record.id)) return `${at}message id ${record.id} appears twice; the later one is skipped`;
        let parentId = record.parentId;
        let warning: string | undefined;
        if (parentId !== null && !this.nodes.has(parentId)) {
          // Its parent's line was lost; hanging it under the message read just before keeps the history whole.
          warning = `${at}message ${record.id} follows ${parentId}, which is missing; attached after the previous message`;
          parentId = this.lastMessageId;
        }
        const parent = parentId === null ? undefined : this.nodes.get(parentId);
        const node: MessageNode = {
          id: record.id,
          parentId,
          ts: record.ts,
          message: record.message,
          depth: parent ? parent.depth + 1 : 1,
        };
        if (record.meta) node.meta = record.meta;
        this.nodes.set(record.id, node);
        this.leafId = record.id;
        this.lastMessageId = record.id;
        if (this.promptTitle === undefined && record.message.role === 'user') this.promptTitle = promptTitle(record.message);
        return warning;
      }
      case 'config':
        switch (record.key) {
          case 'approvalMode':
            this.approvalMode = record.value;
            break;
          case 'title':
            this.title = record.value;
            break;
          case 'model':
            this.model = record.value;
            break;
          case 'allowTool':
            this.allowedTools.add(record.value);
            break;
          case 'revokeTool':
            this.allowedTools.delete(record.value);
            break;
          case 'allowCommand':
            this.allowedCommands.add(record.value);
            break;
          case 'currentProject':
            this.currentProject = record.value;
            break;
          case 'worktree':
            this.worktree = record.value;
            break;
          case 'agent':
            this.agent = record.value === '' ? undefined : record.value;
            break;
        }
        return undefined;
      case 'usage':
      {
        const call: UsageTotals = tokensOf(record);
        if (record.costUsd !== undefined) call.costUsd = record.costUsd;
        this.tally.add(call);
        if (record.messageId !== undefined) {
          let tally = this.messageUsage.get(record.messageId);
          if (!tally) this.messageUsage.set(record.messageId, (tally = new UsageTally()));
          tally.add(call);
        }
        return undefined;
      }
      case 'compaction':
        if (!this.nodes.has(record.replacesUpTo)) {
          return `${at}compaction ${record.id} replaces messages up to ${record.replacesUpTo}, which is missing; skipped`;
        }
        this.compactions.push(record);
        return undefined;
      case 'branch':
        if (record.leafId !== null && !this.nodes.has(record.leafId)) {
          return `${at}branch to ${record.leafId}, which is missing; skipped`;
        }
        this.leafId = record.leafId;
        return undefined;
      case 'change':
        if (this.changes.some((c) => c.id === record.id)) return `${at}change id ${record.id} appears twice; the later one is skipped`;
        this.changes.push(record);
        this.fileHistory.push(record);
        return undefined;
      case 'snapshot':
        this.fileHistory.push(record);
        return undefined;
      case 'revert':
        for (const id of record.changeIds) this.revertedChanges.add(id);
        return undefined;
      case 'rules':
        this.rulesFired.push(record);
        return undefined;
      case 'plan':
        this.plans.set(record.id, record);
        return undefined;
      case 'run':
        this.runOpen = record.event === 'start';
        if (record.event === 'end' && record.status === 'interrupted') this.interruptions.push(record);
        return undefined;
    }
  }

  /** The active branch, root first. */
  branch(): MessageNode[] {
    const out: MessageNode[] = [];
    let id = this.leafId;
    while (id !== null) {
      const node = this.nodes.get(id);
      if (!node) break;
      out.push(node);
      id = node.parentId;
    }
    return out.reverse();
  }

  /** The latest compaction that covers part of `branch`, and where its coverage ends. */
  activeCompaction(branch: MessageNode[]): { compaction: CompactionRecord; index: number } | undefined {
    if (this.compactions.length === 0) return undefined;
    const indexById = new Map(branch.map((n, i) => [n.id, i]));
    for (let c = this.compactions.length - 1; c >= 0; c--) {
      const compaction = this.compactions[c]!;
      const index = indexById.get(compaction.replacesUpTo);
      if (index !== undefined) return { compaction, index };
    }
    return undefined;
  }

  get messageCount(): number {
    return this.leafId === null ? 0 : (this.nodes.get(this.leafId)?.depth ?? 0);
  }

  get displayTitle(): string {
    const set = this.title?.trim();
    return set ? cut(set) : (this.promptTitle ?? '');
  }

  config(): SessionConfig {
    const out: SessionConfig = { allowedTools: new Set(this.allowedTools), allowedCommands: new Set(this.allowedCommands) };
    if (this.approvalMode !== undefined) out.approvalMode = this.approvalMode;
    if (this.title !== undefined) out.title = this.title;
    if (this.model !== undefined) out.model = this.model;
    if (this.currentProject !== undefined) out.currentProject = this.currentProject;
    if (this.worktree !== undefined) out.worktree = { ...this.worktree };
    if (this.agent !== undefined) out.agent = this.agent;
    return out;
  }
}

function promptTitle(message: ModelMessage): string | undefined {
  let text: string | undefined;
  if (typeof message.content === 'string') text = message.content;
  else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'text' && !isKeelNote(part.text)) {
        text = part.text;
        break;
      }
    }
  }
  const first = text
    ?.split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return first === undefined ? undefined : cut(first);
}

function cut(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  if (oneLine.length <= TITLE_MAX) return oneLine;
  // By code point, so an emoji is never split in half.
  return `${Array.from(oneLine).slice(0, TITLE_MAX - 1).join('').trimEnd()}…`;
}
