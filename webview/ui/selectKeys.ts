/**
 * What a key does to an open or closed select's list (the select-only combobox of the
 * WAI-ARIA practices): pure, so the keyboard is tested without a page.
 */
export type SelectKeyAction =
  | { kind: 'open'; active: number }
  | { kind: 'move'; active: number }
  | { kind: 'choose'; active: number }
  | { kind: 'close' }
  | { kind: 'none' };

export interface SelectKeyState {
  open: boolean;
  /** The highlighted option while open; the chosen one's index (or -1) while closed. */
  active: number;
  count: number;
}

const PAGE = 10;

const clamp = (index: number, count: number): number => Math.max(0, Math.min(count - 1, index));

export function selectKeyAction(key: string, alt: boolean, state: SelectKeyState): SelectKeyAction {
  const { open, active, count } = state;
  if (count === 0) return { kind: 'none' };
  const from = active < 0 ? 0 : active;
  if (!open) {
    switch (key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'Enter':
      case ' ':
        return { kind: 'open', active: from };
      case 'Home':
        return { kind: 'open', active: 0 };
      case 'End':
        return { kind: 'open', active: count - 1 };
      default:
        return { kind: 'none' };
    }
  }
  switch (key) {
    case 'ArrowDown':
      return { kind: 'move', active: clamp(from + 1, count) };
    case 'ArrowUp':
      return alt ? { kind: 'choose', active: from } : { kind: 'move', active: clamp(from - 1, count) };
    case 'Home':
      return { kind: 'move', active: 0 };
    case 'End':
      return { kind: 'move', active: count - 1 };
    case 'PageDown':
      return { kind: 'move', active: clamp(from + PAGE, count) };
    case 'PageUp':
      return { kind: 'move', active: clamp(from - PAGE, count) };
    case 'Enter':
    case ' ':
    case 'Tab':
      return { kind: 'choose', active: from };
    case 'Escape':
      return { kind: 'close' };
    default:
      return { kind: 'none' };
  }
}

/** Typed letters within this long of each other search as one word. */
export const TYPE_AHEAD_MS = 500;

/**
 * The option type-ahead lands on: the first label, after the current one, that starts with what
 * was typed (ignoring case); the same letter typed again steps through the labels that start with it.
 * -1 when none does.
 */
export function typeAheadMatch(labels: readonly string[], current: number, typed: string): number {
  if (typed === '' || labels.length === 0) return -1;
  const text = typed.toLocaleLowerCase();
  const repeated = [...text].every((char) => char === text[0]);
  const prefix = repeated ? text[0]! : text;
  // A longer word may still match the current option; one letter (or one letter again) moves on.
  const start = repeated ? current + 1 : Math.max(current, 0);
  for (let step = 0; step < labels.length; step++) {
    const index = (start + step) % labels.length;
    if (labels[index]!.toLocaleLowerCase().startsWith(prefix)) return index;
  }
  return -1;
}
