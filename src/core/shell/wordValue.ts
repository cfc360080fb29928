import type { Word } from './shellAst';
import type { WordValue } from './commandOptions';

/** The word's text when nothing in it expands; null otherwise. */
export function staticValue(word: Word): WordValue {
  let out = '';
  for (const part of word.parts) {
    if (part.kind !== 'text') return null;
    out += part.text;
  }
  return out;
}

/**
 * The word as a path: its static text, with a leading `~` or `~/` resolved to `home`.
 * Null when it depends on anything else (`~user`, variables, substitutions, globs).
 */
export function pathValue(word: Word, home: string): WordValue {
  const [first, ...rest] = word.parts;
  if (first?.kind === 'tilde') {
    if (first.user !== '') return null;
    const tail = staticValue({ parts: rest, raw: '' });
    return tail === null ? null : home + tail;
  }
  return staticValue(word);
}

/** How a word is shown in messages: its static text, or its source when it expands. */
export function shownWord(value: WordValue, word?: Word): string {
  if (value !== null) return /[\s'"\\$`]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return word?.raw ?? '…';
}
