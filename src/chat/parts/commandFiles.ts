import type { CommandChange, SnapshotRecord } from '../../core/session';
import { MAX_COMMAND_FILES, type CommandFile, type ToolCallPart } from '../../protocol/uiMessage';

/** A command's changes as its card lists them. */
export function commandFilesOf(changes: readonly CommandChange[], isReverted: (id: string) => boolean): CommandFile[] {
  return changes.map((c) => {
    const file: CommandFile = { id: c.id, displayPath: c.displayPath, kind: c.kind, restorable: c.unkept === undefined, reverted: isReverted(c.id) };
    if (c.added !== undefined) file.added = c.added;
    if (c.removed !== undefined) file.removed = c.removed;
    return file;
  });
}

/** A card's file list with these files added (a background job may add more later); past the cap, how many more. */
export function commandFilesPatch(part: ToolCallPart, files: readonly CommandFile[]): { files: CommandFile[]; moreFiles?: number } {
  const all = [...(part.files ?? []), ...files];
  const more = (part.moreFiles ?? 0) + Math.max(0, all.length - MAX_COMMAND_FILES);
  const next = { files: all.slice(0, MAX_COMMAND_FILES) };
  return more > 0 ? { ...next, moreFiles: more } : next;
}

/** A card's file list with these changes marked as put back; undefined when none is on it. */
export function filesReverted(part: ToolCallPart, ids: ReadonlySet<string>): CommandFile[] | undefined {
  if (!part.files?.some((f) => ids.has(f.id) && !f.reverted)) return undefined;
  return part.files.map((f) => (ids.has(f.id) ? { ...f, reverted: true } : f));
}

/** Command snapshots of a resumed conversation, by tool call. */
export function commandFilesByCall(history: ReadonlyArray<{ type: string }>, isReverted: (id: string) => boolean): Map<string, CommandFile[]> {
  const byCall = new Map<string, CommandFile[]>();
  for (const record of history) {
    if (record.type !== 'snapshot') continue;
    const snapshot = record as SnapshotRecord;
    byCall.set(snapshot.toolCallId, [...(byCall.get(snapshot.toolCallId) ?? []), ...commandFilesOf(snapshot.changes, isReverted)]);
  }
  return byCall;
}
