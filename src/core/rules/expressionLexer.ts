import { ExpressionError } from './expressionError';

export type TokenKind = 'string' | 'number' | 'ident' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  /** The punctuation or identifier text, or the literal's value. */
  value: string | number;
  /** 1-based column of the token's first character. */
  column: number;
}

/** Longest first, so `<=` is not read as `<` then `=`. */
const PUNCTUATION = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '-', '(', ')', '[', ']', '.', ','];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '/': '/', '0': '\0' };
export const MAX_EXPRESSION_CHARS = 2000;

/** Splits a condition into tokens; the last one is always `end`. */
export function tokenize(text: string, columnOffset = 0): Token[] {
  if (text.length > MAX_EXPRESSION_CHARS) {
    throw new ExpressionError(`Expression is too long (${text.length} characters; at most ${MAX_EXPRESSION_CHARS})`);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const column = i + 1 + columnOffset;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new ExpressionError(`Unterminated string starting`, column);
        const d = text[j]!;
        if (d === c) break;
        if (d === '\\') {
          const e = text[j + 1];
          if (e === undefined || !(e in ESCAPES)) throw new ExpressionError(`Unknown escape "\\${e ?? ''}" in string`, j + 1 + columnOffset);
          value += ESCAPES[e];
          j += 2;
          continue;
        }
        value += d;
        j++;
      }
      tokens.push({ kind: 'string', value, column });
      i = j + 1;
      continue;
    }
    if (isDigit(c)) {
      let j = i;
      while (j < text.length && isDigit(text[j]!)) j++;
      if (text[j] === '.' && isDigit(text[j + 1] ?? '')) {
        j++;
        while (j < text.length && isDigit(text[j]!)) j++;
      }
      tokens.push({ kind: 'number', value: Number(text.slice(i, j)), column });
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < text.length && isIdentPart(text[j]!)) j++;
      tokens.push({ kind: 'ident', value: text.slice(i, j), column });
      i = j;
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (!punct) throw new ExpressionError(`Unexpected character "${c}"`, column);
    tokens.push({ kind: 'punct', value: punct, column });
    i += punct.length;
  }
  tokens.push({ kind: 'end', value: '', column: text.length + 1 + columnOffset });
  return tokens;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c);
}
