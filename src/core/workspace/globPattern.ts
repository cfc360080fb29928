/** A glob that cannot be compiled (unclosed `{`), reported to the model as-is. */
export class GlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlobError';
  }
}

export interface GlobOptions {
  /** Expand `{a,b}` alternatives (globs in tools); gitignore patterns have none. */
  braces?: boolean;
  ignoreCase?: boolean;
}

const posixClasses: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: ' \\t\\n\\r\\f\\v',
  xdigit: '0-9a-fA-F',
  punct: '!-\\/:-@\\[-`{-~',
};

const regexSpecial = /[.*+?^${}()|[\]\\/]/g;

function escapeRegex(text: string): string {
  return text.replace(regexSpecial, '\\$&');
}

/**
 * Translates a slash-separated glob into an anchored RegExp: `*` and `?` stay within one
 * segment, a whole `**` segment spans zero or more segments, `[...]` is a character class
 * (`!` or `^` negates) that never matches `/`, `\` escapes the next character.
 */
export function compileGlob(glob: string, opts: GlobOptions = {}): RegExp {
  const source = translate(glob, 0, glob.length, opts.braces ?? false, true);
  return new RegExp(`^${source}$`, opts.ignoreCase ? 'i' : '');
}

function translate(glob: string, start: number, end: number, braces: boolean, startsSegment: boolean): string {
  let out = '';
  let i = start;
  while (i < end) {
    const c = glob[i];
    if (c === '\\') {
      out += i + 1 < end ? escapeRegex(glob[i + 1]) : '\\\\';
      i += 2;
    } else if (c === '*') {
      let stars = 1;
      while (i + stars < end && glob[i + stars] === '*') stars++;
      const atSegmentStart = i === start ? startsSegment : glob[i - 1] === '/';
      const next = i + stars < end ? glob[i + stars] : undefined;
      if (stars >= 2 && atSegmentStart && next === '/') {
        out += '(?:.*/)?';
        i += stars + 1;
      } else if (stars >= 2 && atSegmentStart && next === undefined) {
        out += '.*';
        i += stars;
      } else {
        out += '[^/]*';
        i += stars;
      }
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const parsed = characterClass(glob, i, end);
      out += parsed.source;
      i = parsed.next;
    } else if (c === '{' && braces) {
      const close = matchingBrace(glob, i, end);
      if (close < 0) throw new GlobError(`Invalid glob ${JSON.stringify(glob)}: unclosed "{".`);
      const braceStartsSegment = i === start ? startsSegment : glob[i - 1] === '/';
      const alternatives = splitAlternatives(glob, i + 1, close).map(([s, e]) =>
        translate(glob, s, e, braces, braceStartsSegment),
      );
      out += `(?:${alternatives.join('|')})`;
      i = close + 1;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return out;
}

function characterClass(glob: string, open: number, end: number): { source: string; next: number } {
  let i = open + 1;
  let negate = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < end) {
    const c = glob[i];
    if (c === ']' && !first) {
      const cls = negate ? `[^/${body}]` : `[${body}]`;
      return { source: cls, next: i + 1 };
    }
    if (c === '[' && glob[i + 1] === ':') {
      const close = glob.indexOf(':]', i + 2);
      const name = close > 0 ? glob.slice(i + 2, close) : '';
      if (close > 0 && name in posixClasses) {
        body += posixClasses[name];
        i = close + 2;
        first = false;
        continue;
      }
    }
    if (c === '\\' && i + 1 < end) {
      body += /[a-zA-Z0-9]/.test(glob[i + 1]) ? glob[i + 1] : `\\${glob[i + 1]}`;
      i += 2;
    } else if (c === '-' && !first && glob[i + 1] !== ']') {
      body += '-';
      i++;
    } else {
      body += c === '-' ? '\\-' : escapeClassChar(c);
      i++;
    }
    first = false;
  }
  // No closing bracket: the `[` is an ordinary character.
  return { source: '\\[', next: open + 1 };
}

function escapeClassChar(c: string): string {
  return c === '\\' || c === ']' || c === '[' || c === '^' ? `\\${c}` : c;
}

function matchingBrace(glob: string, open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function splitAlternatives(glob: string, start: number, end: number): [number, number][] {
  const parts: [number, number][] = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < end; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
    } else if (c === ',' && depth === 0) {
      parts.push([from, i]);
      from = i + 1;
    }
  }
  parts.push([from, end]);
  return parts;
}

/** True when the text contains glob syntax (`*`, `?`, `[`, `{`), ignoring escaped characters. */
export function hasGlobSyntax(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[' || c === '{') return true;
  }
  return false;
}
