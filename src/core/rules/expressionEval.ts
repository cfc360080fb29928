import { ExpressionError } from './expressionError';
import type { Expr, RootName } from './expressionParser';
import { MAX_MATCH_SUBJECT_CHARS } from './safeRegExp';

/** What conditions see: plain data only (strings, numbers, booleans, null, arrays, plain objects). */
export type Value = string | number | boolean | null | undefined | readonly Value[] | { readonly [key: string]: Value };
export type Scope = Readonly<Record<RootName, Value>>;

/**
 * Evaluates a parsed condition. Lookups read own properties of plain objects and arrays only,
 * so nothing reaches a prototype, a function or a global; a member of a missing value is
 * `undefined` (like `?.`), so a rule about `event.path` is simply false for an event without one.
 */
export function evaluate(expr: Expr, scope: Scope): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'array':
      return expr.items.map((item) => evaluate(item, scope));
    case 'root':
      return scope[expr.name];
    case 'member':
      return lookup(evaluate(expr.object, scope), expr.property);
    case 'index': {
      const key = evaluate(expr.index, scope);
      if (typeof key !== 'string' && typeof key !== 'number') return undefined;
      return lookup(evaluate(expr.object, scope), key);
    }
    case 'call':
      return call(expr, evaluate(expr.object, scope), expr.args.map((a) => evaluate(a, scope)));
    case 'not':
      return !truthy(evaluate(expr.operand, scope));
    case 'negate': {
      const v = evaluate(expr.operand, scope);
      if (typeof v !== 'number') throw new ExpressionError(`"-" needs a number, got ${typeName(v)}`, expr.column);
      return -v;
    }
    case 'logical': {
      const left = evaluate(expr.left, scope);
      if (expr.op === '&&') return truthy(left) ? evaluate(expr.right, scope) : left;
      return truthy(left) ? left : evaluate(expr.right, scope);
    }
    case 'compare':
      return compare(expr.op, evaluate(expr.left, scope), evaluate(expr.right, scope));
  }
}

export function truthy(v: Value): boolean {
  if (Array.isArray(v)) return true;
  return Boolean(v);
}

function lookup(object: Value, key: string | number): Value {
  if (object === null || object === undefined) return undefined;
  if (typeof object === 'string') {
    if (key === 'length') return object.length;
    return typeof key === 'number' && Number.isInteger(key) ? object[key] : undefined;
  }
  if (Array.isArray(object)) {
    if (key === 'length') return object.length;
    return typeof key === 'number' && Number.isInteger(key) ? (object as readonly Value[])[key] : undefined;
  }
  if (typeof object !== 'object' || !isPlainObject(object)) return undefined;
  const name = String(key);
  return Object.hasOwn(object, name) ? sanitize((object as Record<string, Value>)[name]) : undefined;
}

/** Only data passes out of a lookup: a function or class instance that slipped into the scope reads as undefined. */
function sanitize(v: Value): Value {
  if (v === null || v === undefined) return v;
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return v;
  if (Array.isArray(v) || (t === 'object' && isPlainObject(v as object))) return v;
  return undefined;
}

function isPlainObject(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}

function call(expr: Extract<Expr, { kind: 'call' }>, receiver: Value, args: Value[]): Value {
  if (receiver === null || receiver === undefined) return undefined;
  const { method } = expr;
  if (method === 'includes' && Array.isArray(receiver)) return receiver.some((item) => item === args[0]);
  if (typeof receiver !== 'string') {
    throw new ExpressionError(`${method}() works on strings${method === 'includes' ? ' and lists' : ''}, not on ${typeName(receiver)}`, expr.column);
  }
  switch (method) {
    case 'toLowerCase':
      return receiver.toLowerCase();
    case 'toUpperCase':
      return receiver.toUpperCase();
    case 'trim':
      return receiver.trim();
    case 'matches':
      return expr.regex!.test(receiver.slice(0, MAX_MATCH_SUBJECT_CHARS));
    case 'startsWith':
    case 'endsWith':
    case 'includes': {
      const arg = args[0];
      if (typeof arg !== 'string') throw new ExpressionError(`${method}() needs a string argument, got ${typeName(arg)}`, expr.column);
      return method === 'startsWith' ? receiver.startsWith(arg) : method === 'endsWith' ? receiver.endsWith(arg) : receiver.includes(arg);
    }
  }
}

function compare(op: Extract<Expr, { kind: 'compare' }>['op'], left: Value, right: Value): boolean {
  switch (op) {
    case '==':
      return same(left, right);
    case '!=':
      return !same(left, right);
    case 'in':
      if (Array.isArray(right)) return right.some((item) => same(item, left));
      if (typeof right === 'string') return typeof left === 'string' && right.includes(left);
      if (right && typeof right === 'object' && typeof left === 'string') return isPlainObject(right) && Object.hasOwn(right, left);
      return false;
    default: {
      // Ordering only between two numbers or two strings: no coercion surprises.
      const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
      if (!comparable) return false;
      const a = left as number | string;
      const b = right as number | string;
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
  }
}

/** Strict equality, with null and undefined equal (a missing field `== null`). */
function same(a: Value, b: Value): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return a === b;
}

function typeName(v: Value): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : typeof v;
}
