import type { Script, Word, WordPart } from './shellAst';
import type { ShellCursor } from './shellCursor';

/** How the word reader hands nested scripts back to the grammar. */
export interface NestedParser {
  /** Parses a script up to the matching `)` and consumes it (for `$(`, `<(`, `>(`). */
  untilParen(cur: ShellCursor): Script;
  /** Parses text taken out of the source (the inside of backticks) as a script. */
  text(src: string, cur: ShellCursor): Script;
}

/** Characters that end an unquoted word. */
const wordEnd = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const nameStart = /[A-Za-z_]/;
const nameChar = /[A-Za-z0-9_]/;
const specialParams = new Set(['@', '*', '#', '?', '$', '!', '-']);
const extglobLeads = new Set(['*', '?', '+', '@', '!']);

class PartList {
  readonly parts: WordPart[] = [];

  text(text: string): void {
    if (text === '') return;
    const last = this.parts.at(-1);
    if (last?.kind === 'text') last.text += text;
    else this.parts.push({ kind: 'text', text });
  }

  push(part: WordPart): void {
    this.parts.push(part);
  }
}

/** Whether the cursor is at a character that ends an unquoted word. */
export function atWordEnd(cur: ShellCursor): boolean {
  return cur.eof || wordEnd.has(cur.peek());
}

/**
 * Reads one word at the cursor: quotes are removed, expansions become parts. A tilde counts
 * at the start and after `=` or `:` (as in `PATH=~/bin:~/x`).
 */
export function readWord(cur: ShellCursor, nested: NestedParser): Word {
  const start = cur.pos;
  const out = new PartList();
  let tildeAllowed = true;
  // The unquoted characters as written, everything else as NUL: where globs and braces act.
  let shape = '';
  while (!cur.eof) {
    const c = cur.peek();
    if ((c === '<' || c === '>') && cur.peek(1) === '(') {
      cur.pos += 2;
      cur.enter();
      out.push({ kind: 'processSub', script: nested.untilParen(cur) });
      cur.leave();
      tildeAllowed = false;
      shape += '\0';
      continue;
    }
    if (wordEnd.has(c)) {
      if (c === '(') cur.fail('"(" inside a word (an array, a function definition or an extended glob) is not supported');
      break;
    }
    if (c === '~' && tildeAllowed) {
      cur.pos++;
      let user = '';
      while (!cur.eof && /[A-Za-z0-9._+-]/.test(cur.peek())) user += cur.src[cur.pos++];
      if (cur.eof || cur.peek() === '/' || cur.peek() === ':' || wordEnd.has(cur.peek())) out.push({ kind: 'tilde', user });
      else out.text(`~${user}`);
      tildeAllowed = false;
      shape += `~${user}`;
      continue;
    }
    tildeAllowed = false;
    if (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`') shape += '\0';
    if (c === '\\') {
      if (cur.peek(1) === '\n') cur.pos += 2;
      else if (cur.pos + 1 >= cur.src.length) {
        out.text('\\');
        cur.pos++;
      } else {
        out.text(cur.peek(1));
        cur.pos += 2;
      }
      continue;
    }
    if (c === "'") {
      cur.pos++;
      const end = cur.src.indexOf("'", cur.pos);
      if (end < 0) cur.fail('unterminated single quote');
      out.text(cur.src.slice(cur.pos, end));
      cur.pos = end + 1;
      continue;
    }
    if (c === '"') {
      cur.pos++;
      readDoubleQuoted(cur, nested, out);
      continue;
    }
    if (c === '$') {
      readDollar(cur, nested, out, 'unquoted');
      continue;
    }
    if (c === '`') {
      cur.pos++;
      out.push({ kind: 'commandSub', script: readBackticks(cur, nested, false) });
      continue;
    }
    if (extglobLeads.has(c) && cur.peek(1) === '(') cur.fail(`extended glob "${c}(" is not supported`);
    if (c === '*' || c === '?') {
      shape += c;
      out.push({ kind: 'pattern', text: c });
      cur.pos++;
      continue;
    }
    shape += c;
    out.text(c);
    cur.pos++;
    if (c === '=' || c === ':') tildeAllowed = true;
  }
  const raw = cur.src.slice(start, cur.pos);
  const parts = out.parts;
  // `[...]` may match file names; `{a,b}` and `{1..3}` become several words (`{}` stays literal).
  if (hasBracketPattern(shape) || hasBraceExpansion(shape)) {
    const nestedParts = parts.filter((p) => p.kind === 'commandSub' || p.kind === 'processSub');
    return { parts: [{ kind: 'pattern', text: raw }, ...nestedParts], raw };
  }
  return { parts, raw };
}

/** A `[` with a `]` somewhere after it (linear: regexes here backtrack quadratically). */
function hasBracketPattern(shape: string): boolean {
  const open = shape.indexOf('[');
  return open >= 0 && shape.lastIndexOf(']') > open;
}

/** `{...}` with no brace inside and a `,` or `..` between: `{a,b}`, `{1..3}`. */
function hasBraceExpansion(shape: string): boolean {
  let open = -1;
  let separated = false;
  for (let i = 0; i < shape.length; i++) {
    const c = shape[i];
    if (c === '{') {
      open = i;
      separated = false;
    } else if (c === '}') {
      if (open >= 0 && separated) return true;
      open = -1;
    } else if (open >= 0 && (c === ',' || (c === '.' && shape[i + 1] === '.'))) {
      separated = true;
    }
  }
  return false;
}

function readDoubleQuoted(cur: ShellCursor, nested: NestedParser, out: PartList): void {
  for (;;) {
    if (cur.eof) cur.fail('unterminated double quote');
    const c = cur.peek();
    if (c === '"') {
      cur.pos++;
      return;
    }
    if (c === '\\') {
      const next = cur.peek(1);
      if (next === '\n') cur.pos += 2;
      else if (next === '$' || next === '`' || next === '"' || next === '\\') {
        out.text(next);
        cur.pos += 2;
      } else {
        out.text('\\');
        cur.pos++;
      }
      continue;
    }
    if (c === '$') {
      readDollar(cur, nested, out, 'double');
      continue;
    }
    if (c === '`') {
      cur.pos++;
      out.push({ kind: 'commandSub', script: readBackticks(cur, nested, true) });
      continue;
    }
    out.text(c);
    cur.pos++;
  }
}

type DollarContext = 'unquoted' | 'double' | 'hereDoc';

/** At a `$`: a parameter, a command substitution, a quoting form, or a plain dollar sign. */
function readDollar(cur: ShellCursor, nested: NestedParser, out: PartList, context: DollarContext): void {
  const next = cur.peek(1);
  if (next === '(') {
    if (cur.peek(2) === '(') cur.fail('arithmetic expansion "$((" is not supported');
    cur.pos += 2;
    cur.enter();
    out.push({ kind: 'commandSub', script: nested.untilParen(cur) });
    cur.leave();
    return;
  }
  if (next === '[') cur.fail('arithmetic expansion "$[" is not supported');
  if (next === '{') {
    const end = cur.src.indexOf('}', cur.pos + 2);
    const inner = end < 0 ? '' : cur.src.slice(cur.pos + 2, end);
    if (!/^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$/.test(inner)) {
      cur.fail('only plain "${name}" parameter expansions are supported');
    }
    out.push({ kind: 'param', name: inner });
    cur.pos = end + 1;
    return;
  }
  if (next === "'" && context === 'unquoted') {
    let i = cur.pos + 2;
    while (i < cur.src.length && cur.src[i] !== "'") i += cur.src[i] === '\\' ? 2 : 1;
    if (i >= cur.src.length) cur.fail("unterminated $'...' quote");
    out.push({ kind: 'ansiC', raw: cur.src.slice(cur.pos, i + 1) });
    cur.pos = i + 1;
    return;
  }
  if (next === '"' && context === 'unquoted') {
    cur.pos += 2;
    readDoubleQuoted(cur, nested, out);
    return;
  }
  if (nameStart.test(next)) {
    let i = cur.pos + 1;
    while (i < cur.src.length && nameChar.test(cur.src[i])) i++;
    out.push({ kind: 'param', name: cur.src.slice(cur.pos + 1, i) });
    cur.pos = i;
    return;
  }
  if (/[0-9]/.test(next) || specialParams.has(next)) {
    out.push({ kind: 'param', name: next });
    cur.pos += 2;
    return;
  }
  out.text('$');
  cur.pos++;
}

/** After an opening backtick: the text up to the closing one, unescaped, parsed as a script. */
function readBackticks(cur: ShellCursor, nested: NestedParser, inDoubleQuotes: boolean): Script {
  let inner = '';
  for (;;) {
    if (cur.eof) cur.fail('unterminated backtick');
    const c = cur.peek();
    if (c === '`') {
      cur.pos++;
      break;
    }
    if (c === '\\') {
      const next = cur.peek(1);
      if (next === '$' || next === '`' || next === '\\' || (inDoubleQuotes && next === '"')) {
        inner += next;
        cur.pos += 2;
        continue;
      }
    }
    inner += c;
    cur.pos++;
  }
  cur.enter();
  const script = nested.text(inner, cur);
  cur.leave();
  return script;
}

/** The body of a here-doc with an unquoted delimiter: expansions run, quotes are literal. */
export function readHereDocBody(cur: ShellCursor, nested: NestedParser): Word {
  const out = new PartList();
  while (!cur.eof) {
    const c = cur.peek();
    if (c === '\\') {
      const next = cur.peek(1);
      if (next === '\n') cur.pos += 2;
      else if (next === '$' || next === '`' || next === '\\') {
        out.text(next);
        cur.pos += 2;
      } else {
        out.text('\\');
        cur.pos++;
      }
      continue;
    }
    if (c === '$') {
      readDollar(cur, nested, out, 'hereDoc');
      continue;
    }
    if (c === '`') {
      cur.pos++;
      out.push({ kind: 'commandSub', script: readBackticks(cur, nested, false) });
      continue;
    }
    out.text(c);
    cur.pos++;
  }
  return { parts: out.parts, raw: cur.src };
}
