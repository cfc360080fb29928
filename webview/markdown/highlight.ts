import { isCaseInsensitive, languageFor } from './languages';
import type { LanguageSpec } from './languages';

/**
 * A small tokenizer instead of a full highlighter: it keeps the webview bundle small and
 * is enough to make code blocks readable. Output is escaped HTML with `tok-*` spans.
 */
export function highlightCode(code: string, language?: string): string {
  const name = language?.trim().toLowerCase();
  if (name === 'diff' || name === 'patch') return highlightDiff(code);
  const spec = languageFor(name);
  return spec ? tokenize(code, spec) : escapeHtml(code);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const span = (kind: string, text: string): string => `<span class="tok-${kind}">${escapeHtml(text)}</span>`;

function highlightDiff(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@')) return span('meta', line);
      if (line.startsWith('+')) return span('added', line);
      if (line.startsWith('-')) return span('removed', line);
      return escapeHtml(line);
    })
    .join('\n');
}

const NUMBER = /0[xX][\da-fA-F_]+|0[bB][01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const DASHED_WORD = /[A-Za-z_$][\w$-]*/y;
const WORD_CHAR = /[\w$]/;

function tokenize(code: string, spec: LanguageSpec): string {
  const out: string[] = [];
  const lowerKeywords = isCaseInsensitive(spec);
  const markup = spec.blockComments.some(([open]) => open === '<!--');
  let plainFrom = 0;
  let i = 0;

  const flush = (to: number): void => {
    if (to > plainFrom) out.push(escapeHtml(code.slice(plainFrom, to)));
  };
  const emit = (kind: string, end: number): void => {
    flush(i);
    out.push(span(kind, code.slice(i, end)));
    i = end;
    plainFrom = end;
  };

  while (i < code.length) {
    const ch = code[i] ?? '';
    const prev = i > 0 ? (code[i - 1] ?? '') : '';

    const block = spec.blockComments.find(([open]) => code.startsWith(open, i));
    if (block) {
      const close = code.indexOf(block[1], i + block[0].length);
      emit('comment', close < 0 ? code.length : close + block[1].length);
      continue;
    }
    const line = spec.lineComments.find((marker) => code.startsWith(marker, i));
    if (line && (line !== '#' || prev === '' || /\s/.test(prev))) {
      const end = code.indexOf('\n', i);
      emit('comment', end < 0 ? code.length : end);
      continue;
    }
    if (spec.tripleQuotes && (code.startsWith('"""', i) || code.startsWith("'''", i))) {
      const close = code.indexOf(code.slice(i, i + 3), i + 3);
      emit('string', close < 0 ? code.length : close + 3);
      continue;
    }
    if (spec.quotes.includes(ch)) {
      emit('string', stringEnd(code, i, ch));
      continue;
    }
    if (/\d/.test(ch) && !WORD_CHAR.test(prev)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(code);
      if (match) {
        emit('number', i + match[0].length);
        continue;
      }
    }
    const wordPattern = spec.dashedWords ? DASHED_WORD : WORD;
    wordPattern.lastIndex = i;
    const word = WORD_CHAR.test(prev) ? null : wordPattern.exec(code);
    if (word) {
      const text = word[0];
      const key = lowerKeywords ? text.toLowerCase() : text;
      const kind = wordKind(spec, key, markup, prev, code[i + text.length]);
      if (kind) emit(kind, i + text.length);
      else i += text.length;
      continue;
    }
    i++;
  }
  flush(code.length);
  return out.join('');
}

function wordKind(
  spec: LanguageSpec,
  word: string,
  markup: boolean,
  before: string,
  after: string | undefined,
): string | undefined {
  if (markup) {
    if (before === '<' || before === '/') return 'keyword';
    if (after === '=') return 'type';
    return undefined;
  }
  if (spec.keywords.has(word)) return 'keyword';
  if (spec.literals.has(word)) return 'literal';
  if (spec.capitalizedTypes && /^[A-Z][a-z]\w*$/.test(word)) return 'type';
  return undefined;
}

/** End of a quoted string: the closing quote, or the line end for an unclosed one (not for backticks). */
function stringEnd(code: string, start: number, quote: string): number {
  let j = start + 1;
  while (j < code.length) {
    const c = code[j];
    if (c === '\\') j += 2;
    else if (c === quote) return j + 1;
    else if (c === '\n' && quote !== '`') return j;
    else j++;
  }
  return code.length;
}
