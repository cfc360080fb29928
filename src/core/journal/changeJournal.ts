import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../errors';
import type { Host } from '../host';
import type { Session } from '../session/session';
import type { ChangeRecord } from '../session/sessionRecords';
import { BlobStore } from './blobStore';
import { sha256 } from '../sha256';
import { errorCode } from '../errorCode';

/** Before contents kept per session, at most (the issue: checkpoints must not eat gigabytes). */
export const DEFAULT_JOURNAL_CAP_BYTES = 50 * 1024 * 1024;

/** One applied change as the chat shows it. */
export interface JournalEntry {
  id: string;
  toolCallId: string;
  path: string;
  displayPath: string;
  kind: 'create' | 'edit' | 'delete';
  /** False when its before content was not kept (journal full): it cannot be undone from Keel. */
  undoable: boolean;
  reverted: boolean;
}

export interface RecordedChange {
  entry: JournalEntry;
  /** Something the person should know (the journal is full). */
  warning?: string;
}

export type RevertOutcome =
  /** Files were put back; `message` says which, and which could not be. */
  | { status: 'reverted'; reverted: JournalEntry[]; message: string }
  /** Nothing was written: files changed since Keel's changes; `force` reverts anyway. */
  | { status: 'conflict'; conflicts: string[]; message: string }
  /** Nothing to do (already undone, no change after that point). */
  | { status: 'nothing'; message: string }
  /** Nothing could be put back. */
  | { status: 'failed'; message: string };

export interface ChangeJournalOptions {
  session: Pick<Session, 'path' | 'appendChange' | 'appendRevert' | 'changes' | 'isReverted'>;
  /** Writes reverts (through the editor in VS Code, so Undo works there too). */
  host: Host;
  /** Absolute path → path shown to the person. */
  display(absPath: string): string;
  capBytes?: number;
}

/** Where a session's journal keeps before contents: next to its log. */
export function journalBlobDir(sessionLogPath: string): string {
  return `${sessionLogPath.endsWith('.jsonl') ? sessionLogPath.slice(0, -'.jsonl'.length) : sessionLogPath}.blobs`;
}

async function readBytes(absPath: string): Promise<Buffer | null> {
  try {
    return await readFile(absPath);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return null;
    throw err;
  }
}

interface FileGroup {
  path: string;
  displayPath: string;
  /** Oldest change of the file among those reverted: its before content is what comes back. */
  first: ChangeRecord;
  /** Newest: its after content is what the file must still hold. */
  last: ChangeRecord;
  ids: string[];
}

/**
 * The change journal: every file change Keel applies is recorded in the session log with the
 * hashes of the file before and after, and the before content is kept once per version in
 * the session's blob folder (no shadow repository, no copy of the workspace). Changes can be
 * undone one by one or all from a point on, never over changes someone else made since
 * unless the person says so.
 */
export class ChangeJournal {
  private readonly blobs: BlobStore;
  /** Files put back since the model last heard about it (told with the next message). */
  private readonly untold = new Set<string>();

  constructor(private readonly opts: ChangeJournalOptions) {
    this.blobs = new BlobStore(journalBlobDir(opts.session.path), opts.capBytes ?? DEFAULT_JOURNAL_CAP_BYTES);
  }

  /**
   * `host` for one tool call: everything as the real host, but each write is recorded.
   * A journal that cannot record never fails the write; the person is told instead.
   */
  hostFor(toolCallId: string, onRecorded: (recorded: RecordedChange) => void): Host {
    const { host } = this.opts;
    const writeFile: Host['writeFile'] = async (absPath, content) => {
      const before = await readBytes(absPath);
      const report = await host.writeFile(absPath, content);
      let recorded: RecordedChange | undefined;
      try {
        recorded = await this.record(toolCallId, absPath, before);
      } catch (err) {
        const warning = `Keel could not record its change to ${this.opts.display(absPath)} (${errorMessage(err)}); it cannot be undone from the chat.`;
        host.log('warn', `change journal: ${warning}`);
        return report;
      }
      if (recorded) onRecorded(recorded);
      return report;
    };
    const wrapped = Object.create(host) as Host;
    Object.defineProperty(wrapped, 'writeFile', { value: writeFile, enumerable: true });
    return wrapped;
  }

  entries(): JournalEntry[] {
    return this.opts.session.changes().map((c) => this.entryOf(c));
  }

  entry(changeId: string): JournalEntry | undefined {
    const record = this.opts.session.changes().find((c) => c.id === changeId);
    return record ? this.entryOf(record) : undefined;
  }

  /** Puts one change's file back as it was before it. */
  async undo(changeId: string, opts: { force?: boolean } = {}): Promise<RevertOutcome> {
    const record = this.opts.session.changes().find((c) => c.id === changeId);
    if (!record) return { status: 'nothing', message: 'Keel has no record of that change in this conversation.' };
    if (this.opts.session.isReverted(record.id)) return { status: 'nothing', message: `The change to ${record.displayPath} was already undone.` };
    return this.revert([record], opts.force === true);
  }

  /**
   * Puts every file Keel changed from the first change of these tool calls on back as it was
   * before (the "Restore files to here" of a message: the calls of that message and later).
   */
  async restoreFrom(toolCallIds: Iterable<string>, opts: { force?: boolean } = {}): Promise<RevertOutcome> {
    const ids = new Set(toolCallIds);
    const all = this.opts.session.changes();
    const start = all.findIndex((c) => ids.has(c.toolCallId));
    const targets = start < 0 ? [] : all.slice(start).filter((c) => !this.opts.session.isReverted(c.id));
    if (targets.length === 0) return { status: 'nothing', message: 'Keel has changed no files since this message (or they were already put back).' };
    return this.revert(targets, opts.force === true);
  }

  /**
   * What the model should hear before its next turn: the files put back since it was last
   * told (it would otherwise believe its changes are still there). Empty when nothing was.
   */
  takeRevertNote(): string {
    if (this.untold.size === 0) return '';
    const files = [...this.untold].sort();
    this.untold.clear();
    return (
      `[Keel] Since your last turn the person undid Keel's changes to ${files.join(', ')}: ` +
      `${files.length === 1 ? 'it is' : 'they are'} back as before those changes. Read ${files.length === 1 ? 'it' : 'them'} again before changing ${files.length === 1 ? 'it' : 'them'}.`
    );
  }

  /** Files put back by a restore outside the journal (commands' changes): the model hears of them too. */
  noteReverted(displayPaths: readonly string[]): void {
    for (const p of displayPaths) this.untold.add(p);
  }

  private async record(toolCallId: string, absPath: string, before: Buffer | null): Promise<RecordedChange | undefined> {
    const after = await readBytes(absPath);
    if (before === null && after === null) return undefined;
    if (before !== null && after !== null && before.equals(after)) return undefined;
    const displayPath = this.opts.display(absPath);
    let beforeHash: string | null = null;
    let beforeStored = true;
    let warning: string | undefined;
    if (before !== null) {
      const put = await this.blobs.put(before);
      beforeHash = put.hash;
      if (!put.stored) {
        beforeStored = false;
        warning =
          `Keel's change journal for this conversation is full (${put.reason}): the earlier content of ${displayPath} ` +
          'was not kept, so this change cannot be undone from the chat. VS Code\u2019s Undo or your version control can still take it back; a new chat starts a new journal.';
        this.opts.host.log('warn', `change journal: ${warning}`);
      }
    }
    const record = this.opts.session.appendChange({
      toolCallId,
      path: absPath,
      displayPath,
      beforeHash,
      afterHash: after === null ? null : sha256(after),
      beforeStored,
    });
    const entry = this.entryOf(record);
    return warning ? { entry, warning } : { entry };
  }

  private async revert(targets: readonly ChangeRecord[], force: boolean): Promise<RevertOutcome> {
    const groups = new Map<string, FileGroup>();
    for (const c of targets) {
      const group = groups.get(c.path);
      if (group) {
        group.last = c;
        group.ids.push(c.id);
      } else groups.set(c.path, { path: c.path, displayPath: c.displayPath, first: c, last: c, ids: [c.id] });
    }
    const problems: string[] = [];
    const conflicts: string[] = [];
    const plans: FileGroup[] = [];
    for (const group of groups.values()) {
      if (group.first.beforeHash !== null && !group.first.beforeStored) {
        problems.push(`${group.displayPath}: its earlier content was not kept (the change journal was full)`);
        continue;
      }
      const current = await readBytes(group.path);
      const currentHash = current === null ? null : sha256(current);
      if (currentHash !== group.last.afterHash) conflicts.push(this.describeConflict(group, current === null));
      plans.push(group);
    }
    if (conflicts.length > 0 && !force) {
      const list = conflicts.map((c) => `- ${c}`).join('\n');
      return {
        status: 'conflict',
        conflicts,
        message: `Nothing was put back: ${conflicts.length === 1 ? 'a file was' : 'files were'} changed after Keel's change, and putting ${conflicts.length === 1 ? 'it' : 'them'} back would lose that:\n${list}`,
      };
    }
    const done: FileGroup[] = [];
    // Newest first, so a file touched by several changes ends at its oldest before content.
    for (const group of plans.sort((a, b) => targets.indexOf(b.last) - targets.indexOf(a.last))) {
      try {
        const content = await this.beforeContent(group.first);
        await this.opts.host.writeFile(group.path, content);
        done.push(group);
      } catch (err) {
        problems.push(`${group.displayPath}: ${errorMessage(err)}`);
      }
    }
    if (done.length > 0) this.opts.session.appendRevert(done.flatMap((g) => g.ids), force && conflicts.length > 0);
    for (const group of done) this.untold.add(group.displayPath);
    const reverted = done.flatMap((g) => g.ids.map((id) => this.entryOf(targets.find((t) => t.id === id)!)));
    const problemText = problems.length ? `\nNot put back:\n${problems.map((p) => `- ${p}`).join('\n')}` : '';
    if (done.length === 0) return { status: 'failed', message: `Nothing was put back.${problemText}` };
    const names = done.map((g) => g.displayPath).join(', ');
    return { status: 'reverted', reverted, message: `Put back ${names} as ${done.length === 1 ? 'it was' : 'they were'} before Keel's change${reverted.length === 1 ? '' : 's'}.${problemText}` };
  }

  private async beforeContent(first: ChangeRecord): Promise<string | null> {
    if (first.beforeHash === null) return null;
    const bytes = await this.blobs.get(first.beforeHash);
    if (!isUtf8(bytes)) throw new Error('its earlier content is not UTF-8 text, which the editor cannot write back exactly');
    return bytes.toString('utf8');
  }

  private describeConflict(group: FileGroup, missing: boolean): string {
    const later = this.opts.session
      .changes()
      .some((c) => c.path === group.path && !this.opts.session.isReverted(c.id) && c !== group.last && this.isAfter(c, group.last));
    if (later) return `${group.displayPath}: Keel changed it again later; undo that change first, or restore to an earlier message`;
    return missing ? `${group.displayPath}: it was deleted since` : `${group.displayPath}: it was changed since (by you or another program)`;
  }

  private isAfter(a: ChangeRecord, b: ChangeRecord): boolean {
    const all = this.opts.session.changes();
    return all.indexOf(a) > all.indexOf(b);
  }

  private entryOf(record: ChangeRecord): JournalEntry {
    return {
      id: record.id,
      toolCallId: record.toolCallId,
      path: record.path,
      displayPath: record.displayPath,
      kind: record.beforeHash === null ? 'create' : record.afterHash === null ? 'delete' : 'edit',
      undoable: record.beforeHash === null || record.beforeStored,
      reverted: this.opts.session.isReverted(record.id),
    };
  }
}
