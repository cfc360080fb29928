import type { JournalEntry } from '../core/journal/changeJournal';
import type { AppliedChange, UiMessage } from '../protocol/uiMessage';

/** The message with the journal entry on the card of the call that made it. */
export function withChange(message: UiMessage, change: JournalEntry): UiMessage {
  const applied: AppliedChange = {
    id: change.id,
    displayPath: change.displayPath,
    kind: change.kind,
    undoable: change.undoable,
    reverted: change.reverted,
  };
  return {
    ...message,
    parts: message.parts.map((p) => (p.type === 'toolCall' && p.toolCallId === change.toolCallId ? { ...p, change: applied } : p)),
  };
}
