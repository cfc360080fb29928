import { ExpressionError } from './expressionError';

export const MAX_PATTERN_CHARS = 200;
/** `matches()` looks at most this much of its subject, so a long tool output cannot stall a rule. */
export const MAX_MATCH_SUBJECT_CHARS = 10_000;
const ALLOWED_FLAGS = /^[imsu]*$/;

/**
 * A RegExp for a rule's `matches()`, refused when it could backtrack catastrophically:
 * backreferences, lookaround, and a repeated group that itself repeats or alternates
 * (`(a+)+`, `(a|ab)*`). Checked when the rule loads, so a bad pattern names its rule.
 */
export function safeRegExp(pattern: string, flags = ''): RegExp {
  if (pattern.length > MAX_PATTERN_CHARS) throw new ExpressionError(`Pattern is too long (at most ${MAX_PATTERN_CHARS} characters)`);
  if (!ALLOWED_FLAGS.test(flags)) throw new ExpressionError(`Pattern flags "${flags}" are not allowed (use i, m, s, u)`);
  checkShape(pattern);
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    throw new ExpressionError(`Invalid pattern /${pattern}/: ${(err as Error).message}`);
  }
}

interface Group {
  repeats: boolean;
  alternates: boolean;
}

function checkShape(pattern: string): void {
  const stack: Group[] = [{ repeats: false, alternates: false }];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    const top = stack[stack.length - 1]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if ((next >= '1' && next <= '9') || next === 'k') throw new ExpressionError(`Pattern /${pattern}/ uses a backreference, which is not allowed`);
      i += 2;
      i = afterQuantifier(pattern, i, top);
      continue;
    }
    if (c === '[') {
      i = classEnd(pattern, i);
      i = afterQuantifier(pattern, i, top);
      continue;
    }
    if (c === '(') {
      if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
        throw new ExpressionError(`Pattern /${pattern}/ uses lookaround, which is not allowed`);
      }
      stack.push({ repeats: false, alternates: false });
      i++;
      continue;
    }
    if (c === ')') {
      if (stack.length === 1) throw new ExpressionError(`Invalid pattern /${pattern}/: unmatched ")"`);
      const group = stack.pop()!;
      const parent = stack[stack.length - 1]!;
      const q = quantifierAt(pattern, i + 1);
      if (q.unbounded && (group.repeats || group.alternates)) {
        throw new ExpressionError(`Pattern /${pattern}/ repeats a group that itself repeats or alternates, which can take forever to match`);
      }
      if (group.repeats || q.length > 0) parent.repeats = true;
      i += 1 + q.length;
      continue;
    }
    if (c === '|') top.alternates = true;
    i = afterQuantifier(pattern, i + 1, top);
  }
}

/** Skips a quantifier after an atom, noting that the current group repeats something. */
function afterQuantifier(pattern: string, i: number, group: Group): number {
  const q = quantifierAt(pattern, i);
  if (q.length > 0) group.repeats = true;
  return i + q.length;
}

function quantifierAt(pattern: string, i: number): { length: number; unbounded: boolean } {
  const c = pattern[i];
  let length = 0;
  let unbounded = false;
  if (c === '*' || c === '+') {
    length = 1;
    unbounded = true;
  } else if (c === '?') {
    length = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (m) {
      length = m[0].length;
      unbounded = m[2] !== undefined && m[3] === '';
    }
  }
  if (length > 0 && pattern[i + length] === '?') length++;
  return { length, unbounded };
}

function classEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
  return j + 1;
}
