import * as l10n from '@vscode/l10n';
import { mentionLabel } from '../../core/mentions';
import type { MentionNote as LoggedNote } from '../../core/mentions';
import type { UiMessage, UiPart } from '../../protocol/uiMessage';

const maxNoteChars = 1000;

/**
 * A user message with each mention chip carrying the note for its mention when the core did
 * not attach it whole (cut for the budget, left out, failed). Notes are matched to chips by
 * the mention's label, as the core names them.
 */
export function withMentionNotes(message: UiMessage, notes: readonly LoggedNote[]): UiMessage {
  if (notes.length === 0) return message;
  const byLabel = new Map(notes.map((n) => [n.label, n]));
  let changed = false;
  const parts = message.parts.map((part): UiPart => {
    if (part.type !== 'mention') return part;
    const found = byLabel.get(mentionLabel(part.mention));
    if (!found) return part;
    changed = true;
    return { ...part, note: { status: found.status, text: noteText(found) } };
  });
  return changed ? { ...message, parts } : message;
}

function noteText(note: LoggedNote): string {
  const what =
    note.status === 'cut'
      ? l10n.t('Cut to fit the budget for mentions')
      : note.status === 'omitted'
        ? l10n.t('Not attached: the budget for mentions was used up')
        : l10n.t('Could not be attached');
  const text = note.note && note.status !== 'omitted' ? `${what}: ${note.note}` : what;
  return text.length > maxNoteChars ? `${text.slice(0, maxNoteChars - 1)}…` : text;
}
