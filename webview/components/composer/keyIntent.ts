/** The parts of a keydown the composer looks at (a React or DOM KeyboardEvent fits). */
export interface KeyLike {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** True while an IME composes (e.g. Japanese or Chinese input). */
  isComposing?: boolean;
  /** 229 is what browsers report for keys an IME handles. */
  keyCode?: number;
}

export type KeyIntent = 'send' | 'newline' | 'next' | 'previous' | 'pick' | 'close' | 'none';

/**
 * What a key does in the composer. Enter sends, Shift+Enter breaks the line, and any
 * key during IME composition belongs to the IME (Enter there confirms a word, it must
 * not send). With a completion popup open, arrows move, Enter/Tab pick, Escape closes.
 */
export function composerKeyIntent(event: KeyLike, popupOpen: boolean, composing: boolean): KeyIntent {
  if (composing || event.isComposing === true || event.keyCode === 229) return 'none';
  if (popupOpen) {
    if (event.key === 'ArrowDown') return 'next';
    if (event.key === 'ArrowUp') return 'previous';
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') return 'pick';
    if (event.key === 'Escape') return 'close';
  }
  if (event.key !== 'Enter') return 'none';
  if (event.shiftKey || event.altKey) return 'newline';
  return 'send';
}
