import { describe, expect, it } from 'vitest';
import { ExpressionError } from '../../../src/core/rules/expressionError';
import { evaluate } from '../../../src/core/rules/expressionEval';
import type { Scope } from '../../../src/core/rules/expressionEval';
import { parseExpression } from '../../../src/core/rules/expressionParser';
import { safeRegExp } from '../../../src/core/rules/safeRegExp';
import { parseTemplate, renderTemplate } from '../../../src/core/rules/textTemplate';

const scope: Scope = {
  event: { name: 'tool_result', tool: 'edit', path: 'db/Schema.SQL', paths: ['db/Schema.SQL', 'b.ts'], isError: false, count: 3 },
  session: { mode: 'act', turn: 2 },
  task: { edits: ['db/Schema.SQL'], testsRun: false },
  workspace: { testCommand: 'npm test', folders: ['app'] },
};

const run = (text: string, s: Scope = scope) => evaluate(parseExpression(text), s);

function parseError(text: string): ExpressionError {
  try {
    parseExpression(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ExpressionError);
    return err as ExpressionError;
  }
  throw new Error(`"${text}" parsed`);
}

describe('rule expressions: evaluation', () => {
  it('evaluates the documented SQL example', () => {
    expect(run('event.tool == "edit" && event.path.toLowerCase().endsWith(".sql")')).toBe(true);
    expect(run('event.tool == "edit" && event.path.endsWith(".sql")')).toBe(false);
  });

  it('has literals, comparison, logic, negation and parentheses with the usual precedence', () => {
    expect(run('1 < 2 && "a" < "b" && 2 >= 2 && 3 > -1')).toBe(true);
    expect(run('!(event.count == 3) || session.turn != 2')).toBe(false);
    expect(run('true || false && false')).toBe(true);
    expect(run('(true || false) && false')).toBe(false);
    expect(run('!event.isError')).toBe(true);
    expect(run("'single' == \"single\"")).toBe(true);
    expect(run('"tab\\there"')).toBe('tab\there');
    expect(run('null == event.missing')).toBe(true);
    expect(run('1.5 > 1')).toBe(true);
    expect(run('event.count === 3 && event.count !== 4')).toBe(true);
  });

  it('compares without coercion', () => {
    expect(run('event.count == "3"')).toBe(false);
    expect(run('"10" < 9')).toBe(false);
    expect(run('event.missing < 1')).toBe(false);
  });

  it('supports in over lists, strings and objects, and list includes()', () => {
    expect(run('event.tool in ["edit", "write"]')).toBe(true);
    expect(run('"read" in ["edit", "write"]')).toBe(false);
    expect(run('"Schema" in event.path')).toBe(true);
    expect(run('"tool" in event')).toBe(true);
    expect(run('"toString" in event')).toBe(false);
    expect(run('event.paths.includes("b.ts")')).toBe(true);
    expect(run('task.edits.length == 1 && event.paths[1] == "b.ts" && event["tool"] == "edit"')).toBe(true);
  });

  it('has the whitelisted string methods', () => {
    expect(run('event.path.startsWith("db/")')).toBe(true);
    expect(run('event.path.includes("Schema")')).toBe(true);
    expect(run('event.path.toUpperCase()')).toBe('DB/SCHEMA.SQL');
    expect(run('" x ".trim()')).toBe('x');
    expect(run('event.path.matches("\\\\.sql$", "i")')).toBe(true);
    expect(run('event.path.matches("^src/")')).toBe(false);
    expect(run('event.path.length')).toBe(13);
  });

  it('reads a member of a missing value as undefined, so a rule is simply false for events without it', () => {
    expect(run('event.command.startsWith("npm")')).toBeUndefined();
    expect(run('event.tool == "bash" && event.command.startsWith("npm")')).toBe(false);
    expect(run('event.missing.deeper.still')).toBeUndefined();
  });

  it('reports type errors at evaluation with the column', () => {
    expect(() => run('session.turn.startsWith("1")')).toThrow(/startsWith\(\) works on strings.*column 14/);
    expect(() => run('event.path.endsWith(1)')).toThrow(/needs a string argument, got number/);
    expect(() => run('-event.path')).toThrow(/"-" needs a number/);
  });
});

describe('rule expressions: parse errors say what and where', () => {
  it.each([
    ['event.tool ==', /Expected a value but found the end of the expression \(at column 14\)/],
    ['event.tool == "edit" event.path', /Expected the end of the expression.*found "event" \(at column 22\)/],
    ['(event.tool == "edit"', /Expected "\)" but found the end/],
    ['event.tool = "edit"', /Unexpected character "=" \(at column 12\)/],
    ['"unterminated', /Unterminated string starting \(at column 1\)/],
    ['"bad \\q escape"', /Unknown escape "\\q"/],
    ['foo == 1', /Unknown name "foo"; start from event, session, task, workspace/],
    ['event.path.replace("a", "b")', /Unknown method "replace"/],
    ['event.path.startsWith()', /startsWith\(\) takes 1 argument, not 0/],
    ['event.path.matches(event.tool)', /matches\(\) needs a string literal pattern/],
    ['event.path.matches("(a+)+$")', /repeats a group.*column 20/],
    ['1 < 2 < 3', /cannot be chained/],
    ['event.tool & 1', /Unexpected character "&"/],
    ['event.', /Expected a property name after "\."/],
  ])('%s', (text, message) => {
    expect(parseError(text).message).toMatch(message);
  });

  it('refuses overlong and deeply nested expressions instead of overflowing the stack', () => {
    expect(parseError('1 == 1 && '.repeat(300) + 'true').message).toMatch(/too long/);
    expect(parseError('!'.repeat(100) + 'true').message).toMatch(/nested too deeply/);
    expect(parseError('('.repeat(100) + 'true' + ')'.repeat(100)).message).toMatch(/nested too deeply/);
  });
});

describe('rule expressions: no way out to prototypes, functions or globals', () => {
  it.each([
    'event.constructor',
    'event.__proto__',
    'event["__proto__"]',
    'event.path.constructor',
    'event.prototype',
  ])('refuses %s when parsing', (text) => {
    expect(parseError(text).message).toMatch(/not accessible/);
  });

  it('cannot call anything but the whitelisted methods', () => {
    expect(parseError('event.path.constructor("return 1")').message).toMatch(/Unknown method "constructor"/);
    expect(parseError('event.toString()').message).toMatch(/Unknown method "toString"/);
    expect(parseError('event.tool()').message).toMatch(/Unknown method "tool"/);
    expect(parseError('(event.path)("x")').message).toMatch(/Only the methods/);
    expect(parseError('globalThis.process').message).toMatch(/Unknown name "globalThis"/);
    expect(parseError('process.env').message).toMatch(/Unknown name "process"/);
    expect(parseError('this.x').message).toMatch(/Unknown name "this"/);
  });

  it('reads inherited names as undefined through computed keys', () => {
    const key = (k: string) => run(`event[${JSON.stringify(k)}]`);
    expect(key('toString')).toBeUndefined();
    expect(key('hasOwnProperty')).toBeUndefined();
    expect(run('event.paths["map"]')).toBeUndefined();
    expect(run('event.path["length"]')).toBe(13);
  });

  it('a computed key cannot reach a prototype either', () => {
    const s: Scope = { ...scope, event: { name: 'x', key: '__proto__', ctor: 'constructor' } };
    expect(run('event[event.key]', s)).toBeUndefined();
    expect(run('event[event.ctor]', s)).toBeUndefined();
    expect(run('event.key[event.ctor]', s)).toBeUndefined();
  });

  it('does not hand out functions or class instances that slipped into the scope', () => {
    const s = { ...scope, event: { fn: () => 1, when: new Date(0), map: new Map([['a', 1]]) } } as unknown as Scope;
    expect(run('event.fn', s)).toBeUndefined();
    expect(run('event.when', s)).toBeUndefined();
    expect(run('event.map.size', s)).toBeUndefined();
  });

  it('never mutates what it reads', () => {
    const event = { name: 'x', list: ['a'] };
    evaluate(parseExpression('event.list.includes("a") && event.name.toUpperCase() == "X"'), { ...scope, event });
    expect(event).toEqual({ name: 'x', list: ['a'] });
  });
});

describe('safe regular expressions for matches()', () => {
  it.each(['(a+)+', '(a*)*b', '(a|ab)*', '(\\d+){2,}', '(x+)+?', '((a+)b)+'])('refuses %s (catastrophic backtracking)', (p) => {
    expect(() => safeRegExp(p)).toThrow(/repeats a group/);
  });

  it.each(['(a)\\1', '(?<n>a)\\k<n>'])('refuses backreferences: %s', (p) => {
    expect(() => safeRegExp(p)).toThrow(/backreference/);
  });

  it.each(['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])('refuses lookaround: %s', (p) => {
    expect(() => safeRegExp(p)).toThrow(/lookaround/);
  });

  it('accepts ordinary patterns, refuses bad flags, bad syntax and long patterns', () => {
    expect(safeRegExp('^src/.*\\.(ts|tsx)$').test('src/a.tsx')).toBe(true);
    expect(safeRegExp('(ab)+c', 'i').test('ABABC')).toBe(true);
    expect(safeRegExp('[(+]+').test('(+')).toBe(true);
    expect(() => safeRegExp('a', 'g')).toThrow(/flags "g" are not allowed/);
    expect(() => safeRegExp('a[')).toThrow(/Invalid pattern/);
    expect(() => safeRegExp('a'.repeat(201))).toThrow(/too long/);
  });
});

describe('text templates', () => {
  it('fills {{ }} holes from the scope, lists joined and missing values empty', () => {
    const t = parseTemplate('Edited {{event.path}} ({{ event.paths }}); tests: {{workspace.testCommand}}{{event.nothing}}.');
    expect(renderTemplate(t, scope)).toBe('Edited db/Schema.SQL (db/Schema.SQL, b.ts); tests: npm test.');
  });

  it('reports a broken hole with its column in the whole text', () => {
    expect(() => parseTemplate('abc {{ event.tool == }}')).toThrow(/Expected a value.*column 22/);
    expect(() => parseTemplate('abc {{ event.tool')).toThrow(/"\{\{" is not closed.*column 5/);
  });
});
