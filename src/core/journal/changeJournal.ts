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

export interface ChangeJournalOptions {
  session: Pick<Session, 'path' | 'appendChange' | 'changes' | 'isReverted'>;
  /** The host whose writes are recorded (`hostFor`). */
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

/**
 * The change journal: every file change Keel applies is recorded in the session log with the
 * hashes of the file before and after, and the before content is kept once per version in
 * the session's blob folder (no shadow repository, no copy of the workspace). Putting changes
 * back is FileRestore's (snapshots/fileRestore.ts), over these records and the commands' snapshots.
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
