import { ExpressionError } from './expressionError';
import { tokenize } from './expressionLexer';
import type { Token } from './expressionLexer';
import { safeRegExp } from './safeRegExp';

/** The names a condition can start from; anything else is a parse error. */
export const ROOT_NAMES = ['event', 'session', 'task', 'workspace'] as const;
export type RootName = (typeof ROOT_NAMES)[number];

/** Methods a condition may call; nothing else is reachable. */
export const METHODS = ['startsWith', 'endsWith', 'includes', 'toLowerCase', 'toUpperCase', 'trim', 'matches'] as const;
export type MethodName = (typeof METHODS)[number];

/** Property names that lead to prototypes or constructors: refused outright, even though lookups are own-property only. */
const FORBIDDEN_PROPERTIES = new Set(['__proto__', 'prototype', 'constructor', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=']);
const MAX_DEPTH = 64;

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in';

export type Expr =
  | { kind: 'literal'; value: string | number | boolean | null; column: number }
  | { kind: 'array'; items: Expr[]; column: number }
  | { kind: 'root'; name: RootName; column: number }
  | { kind: 'member'; object: Expr; property: string; column: number }
  | { kind: 'index'; object: Expr; index: Expr; column: number }
  | { kind: 'call'; object: Expr; method: MethodName; args: Expr[]; regex?: RegExp; column: number }
  | { kind: 'not'; operand: Expr; column: number }
  | { kind: 'negate'; operand: Expr; column: number }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr; column: number }
  | { kind: 'logical'; op: '&&' | '||'; left: Expr; right: Expr; column: number };

/**
 * Parses a rule condition: literals, `event`/`session`/`task`/`workspace` and their members,
 * comparisons, `in`, `&&`, `||`, `!`, parentheses, and the whitelisted string methods.
 * `columnOffset` places columns inside a larger text (a template).
 */
export function parseExpression(text: string, columnOffset = 0): Expr {
  const parser = new Parser(tokenize(text, columnOffset));
  const expr = parser.expression(0);
  parser.expectEnd();
  return expr;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  expectEnd(): void {
    const t = this.peek();
    if (t.kind !== 'end') throw unexpected(t, 'the end of the expression (a missing && or ||?)');
  }

  expression(depth: number): Expr {
    if (depth > MAX_DEPTH) throw new ExpressionError(`Expression is nested too deeply (more than ${MAX_DEPTH} levels)`, this.peek().column);
    return this.or(depth + 1);
  }

  private or(depth: number): Expr {
    let left = this.and(depth);
    while (this.isPunct('||')) {
      const column = this.next().column;
      left = { kind: 'logical', op: '||', left, right: this.and(depth), column };
    }
    return left;
  }

  private and(depth: number): Expr {
    let left = this.comparison(depth);
    while (this.isPunct('&&')) {
      const column = this.next().column;
      left = { kind: 'logical', op: '&&', left, right: this.comparison(depth), column };
    }
    return left;
  }

  private comparison(depth: number): Expr {
    const left = this.unary(depth);
    const t = this.peek();
    let op: CompareOp | undefined;
    if (t.kind === 'punct' && COMPARISONS.has(t.value as string)) {
      const raw = t.value as string;
      op = raw === '===' ? '==' : raw === '!==' ? '!=' : (raw as CompareOp);
    } else if (t.kind === 'ident' && t.value === 'in') {
      op = 'in';
    }
    if (!op) return left;
    this.next();
    const right = this.unary(depth);
    const after = this.peek();
    if ((after.kind === 'punct' && COMPARISONS.has(after.value as string)) || (after.kind === 'ident' && after.value === 'in')) {
      throw new ExpressionError(`Comparisons cannot be chained; use parentheses and && instead`, after.column);
    }
    return { kind: 'compare', op, left, right, column: t.column };
  }

  private unary(depth: number): Expr {
    if (depth > MAX_DEPTH) throw new ExpressionError(`Expression is nested too deeply (more than ${MAX_DEPTH} levels)`, this.peek().column);
    if (this.isPunct('!')) {
      const column = this.next().column;
      return { kind: 'not', operand: this.unary(depth + 1), column };
    }
    if (this.isPunct('-')) {
      const column = this.next().column;
      return { kind: 'negate', operand: this.unary(depth + 1), column };
    }
    return this.postfix(depth);
  }

  private postfix(depth: number): Expr {
    let expr = this.primary(depth);
    for (;;) {
      if (this.isPunct('.')) {
        this.next();
        const name = this.next();
        if (name.kind !== 'ident') throw unexpected(name, 'a property name after "."');
        const property = name.value as string;
        if (this.isPunct('(')) {
          expr = this.call(expr, property, name.column, depth);
          continue;
        }
        if (FORBIDDEN_PROPERTIES.has(property)) throw new ExpressionError(`Property "${property}" is not accessible`, name.column);
        expr = { kind: 'member', object: expr, property, column: name.column };
        continue;
      }
      if (this.isPunct('[')) {
        const column = this.next().column;
        const index = this.expression(depth + 1);
        this.expectPunct(']');
        if (index.kind === 'literal' && typeof index.value === 'string' && FORBIDDEN_PROPERTIES.has(index.value)) {
          throw new ExpressionError(`Property "${index.value}" is not accessible`, index.column);
        }
        expr = { kind: 'index', object: expr, index, column };
        continue;
      }
      if (this.isPunct('(')) throw new ExpressionError(`Only the methods ${METHODS.join(', ')} can be called`, this.peek().column);
      return expr;
    }
  }

  private call(object: Expr, name: string, column: number, depth: number): Expr {
    if (!(METHODS as readonly string[]).includes(name)) {
      throw new ExpressionError(`Unknown method "${name}"; the methods are ${METHODS.join(', ')}`, column);
    }
    const method = name as MethodName;
    this.expectPunct('(');
    const args: Expr[] = [];
    if (!this.isPunct(')')) {
      for (;;) {
        args.push(this.expression(depth + 1));
        if (!this.isPunct(',')) break;
        this.next();
      }
    }
    this.expectPunct(')');
    const expected = method === 'toLowerCase' || method === 'toUpperCase' || method === 'trim' ? [0, 0] : method === 'matches' ? [1, 2] : [1, 1];
    if (args.length < expected[0]! || args.length > expected[1]!) {
      const want = expected[0] === expected[1] ? `${expected[0]}` : `${expected[0]} or ${expected[1]}`;
      throw new ExpressionError(`${method}() takes ${want} argument${want === '1' ? '' : 's'}, not ${args.length}`, column);
    }
    if (method !== 'matches') return { kind: 'call', object, method, args, column };
    // The pattern must be known when the rule loads, so an unsafe one is refused with its rule's name.
    const [pattern, flags] = args;
    if (pattern!.kind !== 'literal' || typeof pattern!.value !== 'string') {
      throw new ExpressionError(`matches() needs a string literal pattern, such as matches("\\\\.sql$")`, pattern!.column);
    }
    if (flags && (flags.kind !== 'literal' || typeof flags.value !== 'string')) {
      throw new ExpressionError(`matches() flags must be a string literal, such as "i"`, flags.column);
    }
    let regex: RegExp;
    try {
      regex = safeRegExp(pattern!.value, flags?.kind === 'literal' ? String(flags.value) : '');
    } catch (err) {
      throw new ExpressionError((err as Error).message, pattern!.column);
    }
    return { kind: 'call', object, method, args, regex, column };
  }

  private primary(depth: number): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'string':
      case 'number':
        return { kind: 'literal', value: t.value, column: t.column };
      case 'ident': {
        const name = t.value as string;
        if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true', column: t.column };
        if (name === 'null' || name === 'undefined') return { kind: 'literal', value: null, column: t.column };
        if ((ROOT_NAMES as readonly string[]).includes(name)) return { kind: 'root', name: name as RootName, column: t.column };
        throw new ExpressionError(`Unknown name "${name}"; start from ${ROOT_NAMES.join(', ')}, or quote a string`, t.column);
      }
      case 'punct':
        if (t.value === '(') {
          const inner = this.expression(depth + 1);
          this.expectPunct(')');
          return inner;
        }
        if (t.value === '[') {
          const items: Expr[] = [];
          if (!this.isPunct(']')) {
            for (;;) {
              items.push(this.expression(depth + 1));
              if (!this.isPunct(',')) break;
              this.next();
            }
          }
          this.expectPunct(']');
          return { kind: 'array', items, column: t.column };
        }
        throw unexpected(t, 'a value');
      case 'end':
        throw unexpected(t, 'a value');
    }
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  private isPunct(value: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.value === value;
  }

  private expectPunct(value: string): void {
    const t = this.next();
    if (t.kind !== 'punct' || t.value !== value) throw unexpected(t, `"${value}"`);
  }
}

function unexpected(t: Token, expected: string): ExpressionError {
  const found = t.kind === 'end' ? 'the end of the expression' : t.kind === 'string' ? `the string ${JSON.stringify(t.value)}` : `"${t.value}"`;
  return new ExpressionError(`Expected ${expected} but found ${found}`, t.column);
}
