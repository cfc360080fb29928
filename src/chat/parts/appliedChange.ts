import type { JournalEntry } from '../../core/journal';
import type { AppliedChange } from '../../protocol/uiMessage';

/** A journal entry as the card of the call that made it shows it (the card offers Undo). */
export function appliedChange(change: JournalEntry): AppliedChange {
  return {
    id: change.id,
    displayPath: change.displayPath,
    kind: change.kind,
    undoable: change.undoable,
    reverted: change.reverted,
  };
}
