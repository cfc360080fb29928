import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../../src/core/rules/expressionEval';
import { compileRule } from '../../../src/core/rules/ruleCompiler';
import { RuleEngine } from '../../../src/core/rules/ruleEngine';
import { RulesLoader } from '../../../src/core/rules/ruleFiles';
import type { CompiledRule, RuleSource } from '../../../src/core/rules/ruleTypes';

function rule(raw: Record<string, unknown>, source: RuleSource = 'workspace', order = 0): CompiledRule {
  const compiled = compileRule({ on: 'tool_result', actions: [{ type: 'reminder', text: `from ${String(raw.id)}` }], ...raw }, source, 'test', order, order);
  if (!compiled.ok) throw new Error(compiled.problem);
  return compiled.rule;
}

const scope = (event: Record<string, unknown> = {}): Scope => ({
  event: { name: 'tool_result', tool: 'edit', path: 'a.sql', ...event } as Scope['event'],
  session: { mode: 'act' },
  task: { edits: [] },
  workspace: { testCommand: null },
});

const ids = (run: { fired: { id: string }[] }) => run.fired.map((f) => f.id);

describe('RuleEngine', () => {
  it('runs only the rules of the event whose condition holds', () => {
    const engine = new RuleEngine();
    const rules = [
      rule({ id: 'sql', if: 'event.path.endsWith(".sql")' }),
      rule({ id: 'ts', if: 'event.path.endsWith(".ts")' }),
      rule({ id: 'start', on: 'session_start' }),
      rule({ id: 'both', on: ['session_start', 'tool_result'] }),
    ];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['sql', 'both']);
    expect(ids(engine.run(rules, 'session_start', scope(), 1))).toEqual(['start', 'both']);
  });

  it('orders by priority, then workspace before user before built-in, then file order', () => {
    const engine = new RuleEngine();
    const rules = [
      rule({ id: 'builtin', priority: 5 }, 'builtin', 0),
      rule({ id: 'user', priority: 5 }, 'user', 1),
      rule({ id: 'low' }, 'workspace', 2),
      rule({ id: 'ws-b', priority: 5 }, 'workspace', 4),
      rule({ id: 'ws-a', priority: 5 }, 'workspace', 3),
      rule({ id: 'high', priority: 50 }, 'builtin', 5),
      rule({ id: 'negative', priority: -1 }, 'workspace', 6),
    ];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['high', 'ws-a', 'ws-b', 'user', 'builtin', 'low', 'negative']);
  });

  it('stops later rules when a firing rule says stop, but not when it did not fire', () => {
    const engine = new RuleEngine();
    const rules = [
      rule({ id: 'first', priority: 3 }),
      rule({ id: 'stopper-off', priority: 2, stop: true, if: 'event.tool == "bash"' }),
      rule({ id: 'stopper', priority: 1, stop: true }),
      rule({ id: 'never' }),
    ];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['first', 'stopper']);
  });

  it('de-duplicates identical actions: the first rule keeps them', () => {
    const engine = new RuleEngine();
    const same = [{ type: 'reminder', text: 'Use snake_case in SQL.' }];
    const run = engine.run(
      [
        rule({ id: 'a', priority: 1, actions: same }),
        rule({ id: 'b', actions: [...same, { type: 'notify', text: 'Use snake_case in SQL.' }] }),
      ],
      'tool_result',
      scope(),
      1,
    );
    expect(run.fired).toEqual([
      { id: 'a', source: 'workspace', actions: [{ type: 'reminder', text: 'Use snake_case in SQL.' }] },
      { id: 'b', source: 'workspace', actions: [{ type: 'notify', text: 'Use snake_case in SQL.' }] },
    ]);
  });

  it('fires a throttled rule at most once per TTL', () => {
    let now = 1_000_000;
    const engine = new RuleEngine({ now: () => now });
    const rules = [rule({ id: 'sql', throttle: { key: 'sql-style', ttlSeconds: 60 } })];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['sql']);
    now += 59_000;
    expect(ids(engine.run(rules, 'tool_result', scope(), 2))).toEqual([]);
    now += 1_000;
    expect(ids(engine.run(rules, 'tool_result', scope(), 2))).toEqual(['sql']);
  });

  it('shares a throttle key between rules, and fills a key template per event', () => {
    const engine = new RuleEngine({ now: () => 0 });
    const shared = [
      rule({ id: 'one', priority: 1, throttle: { key: 'k', ttlSeconds: 10 } }),
      rule({ id: 'two', throttle: { key: 'k', ttlSeconds: 10 } }),
    ];
    expect(ids(engine.run(shared, 'tool_result', scope(), 1))).toEqual(['one']);
    const perFile = [rule({ id: 'file', throttle: { key: 'file:{{event.path}}', per: 'session' } })];
    expect(engine.run(perFile, 'tool_result', scope({ path: 'a.sql' }), 1).fired[0]?.throttleKey).toBe('file:a.sql');
    expect(ids(engine.run(perFile, 'tool_result', scope({ path: 'b.sql' }), 2))).toEqual(['file']);
    expect(ids(engine.run(perFile, 'tool_result', scope({ path: 'a.sql' }), 3))).toEqual([]);
  });

  it('throttles per task: again in the next task, not in the same one', () => {
    const engine = new RuleEngine();
    const rules = [rule({ id: 't', throttle: { per: 'task' } })];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['t']);
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual([]);
    expect(ids(engine.run(rules, 'tool_result', scope(), 2))).toEqual(['t']);
  });

  it('restores throttles remembered from the session log', () => {
    let now = 100_000;
    const engine = new RuleEngine({ now: () => now });
    engine.remember('sql', 90_000);
    const rules = [rule({ id: 'sql', throttle: { ttlSeconds: 30 } })];
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual([]);
    now = 120_000;
    expect(ids(engine.run(rules, 'tool_result', scope(), 1))).toEqual(['sql']);
  });

  it('skips a rule whose condition fails at run time, names it, and runs the rest', () => {
    const engine = new RuleEngine();
    const run = engine.run(
      [rule({ id: 'bad', priority: 1, if: 'event.count.startsWith("x")' }), rule({ id: 'good' })],
      'tool_result',
      scope({ count: 3 }),
      1,
    );
    expect(ids(run)).toEqual(['good']);
    expect(run.problems).toEqual([expect.stringMatching(/^Rule "bad" \(test\) failed on tool_result: startsWith\(\) works on strings/)]);
  });

  it('renders action texts from the event', () => {
    const engine = new RuleEngine();
    const run = engine.run([rule({ id: 'r', actions: [{ type: 'inject_context', text: 'You edited {{event.path}}.' }] })], 'tool_result', scope(), 1);
    expect(run.fired[0]?.actions).toEqual([{ type: 'inject_context', text: 'You edited a.sql.' }]);
  });
});

describe('rules files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-rules-'));
    mkdirSync(join(dir, '.keel'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ws = () => join(dir, '.keel', 'rules.json');
  const user = () => join(dir, 'user-rules.json');
  const files = () => [
    { path: ws(), source: 'workspace' as const },
    { path: user(), source: 'user' as const },
  ];
  const write = (path: string, content: unknown) => writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  const own = (rules: CompiledRule[]) => rules.filter((r) => r.source !== 'builtin').map((r) => `${r.source}:${r.id}`);

  it('loads both files and the built-ins; missing files have no rules and no problems', () => {
    const loader = new RulesLoader();
    expect(loader.load(files())).toMatchObject({ problems: [] });
    expect(loader.load(files()).rules.map((r) => r.id)).toEqual(['builtin.run-tests', 'builtin.plan-confirm']);
    write(ws(), { rules: [{ id: 'sql', on: 'tool_result', actions: [{ type: 'reminder', text: 'x' }] }] });
    write(user(), { rules: [{ id: 'mine', on: ['task_complete'], actions: [{ type: 'notify', text: 'done' }] }] });
    expect(own(loader.load(files()).rules)).toEqual(['workspace:sql', 'user:mine']);
  });

  it('names the file and the rule for each broken rule, and keeps the others', () => {
    write(ws(), {
      rules: [
        { id: 'ok', on: 'tool_result', actions: [{ type: 'reminder', text: 'x' }] },
        { id: 'bad-if', on: 'tool_result', if: 'event.tool = "edit"', actions: [{ type: 'reminder', text: 'x' }] },
        { id: 'bad-event', on: 'file_saved', actions: [{ type: 'reminder', text: 'x' }] },
        { on: 'tool_result', actions: [] },
        { id: 'bad-text', on: 'tool_result', actions: [{ type: 'reminder', text: 'see {{event.path' }] },
        { id: 'bad-throttle', on: 'tool_result', throttle: {}, actions: [{ type: 'notify', text: 'x' }] },
        { id: 'ok', on: 'tool_result', actions: [{ type: 'notify', text: 'duplicate id' }] },
        { id: 'off', enabled: false, on: 'tool_result', actions: [{ type: 'notify', text: 'x' }] },
      ],
    });
    const { rules, problems } = new RulesLoader().load(files());
    expect(own(rules)).toEqual(['workspace:ok']);
    const path = ws();
    expect(problems).toEqual([
      `${path}: rule "bad-if": "if": Unexpected character "=" (at column 12). This rule is ignored; the others apply.`,
      expect.stringMatching(new RegExp(`^${escape(path)}: rule "bad-event" is invalid: on: .*This rule is ignored`)),
      expect.stringMatching(new RegExp(`^${escape(path)}: rule #4 is invalid: id: .*actions: .*`)),
      expect.stringMatching(/rule "bad-text": actions\[0\]\.text: "\{\{" is not closed/),
      expect.stringMatching(/rule "bad-throttle" is invalid: throttle: give ttlSeconds, per, or both/),
      `${path}: rule "ok" has the id of an earlier rule; this one is ignored.`,
    ]);
  });

  it('ignores a file that is not JSON or not a rules file, naming it, while the other file works', () => {
    write(ws(), '{ "rules": [ oops');
    write(user(), { rules: [{ id: 'mine', on: 'task_complete', actions: [{ type: 'notify', text: 'done' }] }] });
    let loaded = new RulesLoader().load(files());
    expect(own(loaded.rules)).toEqual(['user:mine']);
    expect(loaded.problems).toEqual([expect.stringMatching(new RegExp(`^Rules file ${escape(ws())} is not valid JSON .*none of its rules apply`))]);
    write(ws(), { rule: [] });
    loaded = new RulesLoader().load(files());
    expect(loaded.problems).toEqual([expect.stringMatching(/is invalid: \(root\): Unrecognized key: "rule"/)]);
  });

  it('turns off built-in rules listed under disable', () => {
    write(user(), { disable: ['builtin.run-tests'] });
    expect(new RulesLoader().load(files()).rules.map((r) => r.id)).toEqual(['builtin.plan-confirm']);
  });

  it('reads a file again when it changes, and not otherwise', () => {
    const loader = new RulesLoader();
    write(ws(), { rules: [{ id: 'a', on: 'tool_result', actions: [{ type: 'reminder', text: 'x' }] }] });
    const first = loader.load(files()).rules.find((r) => r.id === 'a');
    expect(loader.load(files()).rules.find((r) => r.id === 'a')?.actions).toBe(first?.actions);
    write(ws(), { rules: [{ id: 'b', on: 'tool_result', actions: [{ type: 'reminder', text: 'xy' }] }] });
    utimesSync(ws(), new Date(), new Date(Date.now() + 5000));
    expect(own(loader.load(files()).rules)).toEqual(['workspace:b']);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
