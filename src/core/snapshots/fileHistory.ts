import type { ChangeRecord, CommandChange, SnapshotRecord } from '../session/sessionRecords';
import type { GitFileState } from './gitBlobId';

/** A file's state on one side of a change: by sha256 (journal) or by git id and mode (snapshots). */
export type FileSide = null | { sha256: string } | GitFileState;

/** One change to one file, by any tool, in the order it happened. */
export interface FileStep {
  /** The journal change's id, or the command change's id. */
  id: string;
  toolCallId: string;
  path: string;
  displayPath: string;
  before: FileSide;
  after: FileSide;
  source: { kind: 'journal'; record: ChangeRecord } | { kind: 'command'; record: SnapshotRecord; change: CommandChange };
}

/** Every change Keel made to files in this conversation (journal and commands), oldest first. */
export function fileSteps(history: ReadonlyArray<ChangeRecord | SnapshotRecord>): FileStep[] {
  const steps: FileStep[] = [];
  for (const record of history) {
    if (record.type === 'change') {
      steps.push({
        id: record.id,
        toolCallId: record.toolCallId,
        path: record.path,
        displayPath: record.displayPath,
        before: record.beforeHash === null ? null : { sha256: record.beforeHash },
        after: record.afterHash === null ? null : { sha256: record.afterHash },
        source: { kind: 'journal', record },
      });
      continue;
    }
    for (const change of record.changes) {
      steps.push({
        id: change.id,
        toolCallId: record.toolCallId,
        path: change.path,
        displayPath: change.displayPath,
        before: change.before,
        after: change.after,
        source: { kind: 'command', record, change },
      });
    }
  }
  return steps;
}
