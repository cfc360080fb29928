import type { CommandChange, SnapshotRecord } from '../core/session/sessionRecords';
import { MAX_COMMAND_FILES, type CommandFile, type UiMessage, type UiPart } from '../protocol/uiMessage';

/** A command's changes as its card lists them. */
export function commandFilesOf(changes: readonly CommandChange[], isReverted: (id: string) => boolean): CommandFile[] {
  return changes.map((c) => {
    const file: CommandFile = { id: c.id, displayPath: c.displayPath, kind: c.kind, restorable: c.unkept === undefined, reverted: isReverted(c.id) };
    if (c.added !== undefined) file.added = c.added;
    if (c.removed !== undefined) file.removed = c.removed;
    return file;
  });
}

/** The message with these files added to the card of the call that changed them (a background job may add more later). */
export function withCommandFiles(message: UiMessage, toolCallId: string, files: readonly CommandFile[]): UiMessage {
  return {
    ...message,
    parts: message.parts.map((p): UiPart => {
      if (p.type !== 'toolCall' || p.toolCallId !== toolCallId) return p;
      const all = [...(p.files ?? []), ...files];
      const more = (p.moreFiles ?? 0) + Math.max(0, all.length - MAX_COMMAND_FILES);
      const next = { ...p, files: all.slice(0, MAX_COMMAND_FILES) };
      return more > 0 ? { ...next, moreFiles: more } : next;
    }),
  };
}

/** The message with these changes marked as put back; the same object when none is on it. */
export function withFilesReverted(message: UiMessage, ids: ReadonlySet<string>): UiMessage {
  let changed = false;
  const parts = message.parts.map((p): UiPart => {
    if (p.type !== 'toolCall' || !p.files?.some((f) => ids.has(f.id) && !f.reverted)) return p;
    changed = true;
    return { ...p, files: p.files.map((f) => (ids.has(f.id) ? { ...f, reverted: true } : f)) };
  });
  return changed ? { ...message, parts } : message;
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
