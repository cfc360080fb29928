import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinRules } from '../../../src/core/rules/builtinRules';
import type { Scope } from '../../../src/core/rules/expressionEval';
import { RuleEngine } from '../../../src/core/rules/ruleEngine';
import { detectTestCommand, runsTests } from '../../../src/core/rules/testCommand';

describe('detectTestCommand', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'keel-testcmd-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const put = (name: string, text: string) => writeFileSync(join(dir, name), text);

  it('finds none in an empty folder, nor in npm init\'s placeholder script', () => {
    expect(detectTestCommand(dir)).toBeNull();
    put('package.json', JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    expect(detectTestCommand(dir)).toBeNull();
    put('package.json', '{ not json');
    expect(detectTestCommand(dir)).toBeNull();
  });

  it('uses package.json scripts.test with the package manager of the lockfile', () => {
    put('package.json', JSON.stringify({ scripts: { test: 'vitest run' } }));
    expect(detectTestCommand(dir)).toBe('npm test');
    put('yarn.lock', '');
    expect(detectTestCommand(dir)).toBe('yarn test');
    put('pnpm-lock.yaml', '');
    expect(detectTestCommand(dir)).toBe('pnpm test');
  });

  it.each([
    ['Makefile', 'build:\n\tcc x.c\n\ntest: build\n\t./run\n', 'make test'],
    ['Cargo.toml', '[package]\nname = "x"\n', 'cargo test'],
    ['go.mod', 'module x\n', 'go test ./...'],
    ['pyproject.toml', '[tool.pytest.ini_options]\n', 'pytest'],
    ['pytest.ini', '[pytest]\n', 'pytest'],
    ['setup.cfg', '[tool:pytest]\n', 'pytest'],
  ])('%s → %s', (file, text, command) => {
    put(file, text);
    expect(detectTestCommand(dir)).toBe(command);
  });

  it('needs a test target in a Makefile, and pytest in pyproject.toml', () => {
    put('Makefile', 'build:\n\tcc x.c\n');
    put('pyproject.toml', '[project]\nname = "x"\n');
    expect(detectTestCommand(dir)).toBeNull();
  });
});

describe('runsTests', () => {
  it.each([
    ['npm test', null],
    ['npm run test -- --watch=false', null],
    ['cd api && pytest -q tests/', null],
    ['python -m unittest discover', null],
    ['cargo test --all', null],
    ['go test ./...', null],
    ['npx vitest run src', null],
    ['make -j4 test', null],
    ['./scripts/check.sh', './scripts/check.sh'],
  ])('%s counts as running the tests', (command, testCommand) => {
    expect(runsTests(command, testCommand)).toBe(true);
  });

  it.each(['npm install', 'git status', 'cat test.txt', 'ls tests/', 'make build', 'echo latest'])('%s does not', (command) => {
    expect(runsTests(command, 'npm test')).toBe(false);
  });
});

describe('built-in rules', () => {
  const scope = (over: { event?: object; session?: object; task?: object; workspace?: object } = {}): Scope => ({
    event: { name: 'tool_result', tool: 'edit', category: 'write', path: 'src/a.ts', isError: false, ...over.event },
    session: { mode: 'act', ...over.session },
    task: { testsRun: false, ...over.task },
    workspace: { testCommand: 'npm test', ...over.workspace },
  });
  const fire = (engine: RuleEngine, event: 'tool_result' | 'prompt_submit', s: Scope, task = 1) =>
    engine.run(builtinRules(), event, s, task).fired;

  it('reminds to run the tests after the first edit of a task, naming the command, once per task', () => {
    const engine = new RuleEngine();
    const fired = fire(engine, 'tool_result', scope());
    expect(fired.map((f) => f.id)).toEqual(['builtin.run-tests']);
    expect(fired[0]?.actions[0]).toEqual({ type: 'reminder', text: expect.stringContaining('You changed src/a.ts. This workspace has a test command (npm test)') });
    expect(fire(engine, 'tool_result', scope({ event: { path: 'src/b.ts' } }))).toEqual([]);
    expect(fire(engine, 'tool_result', scope(), 2).map((f) => f.id)).toEqual(['builtin.run-tests']);
  });

  it('stays quiet without a test command, after tests ran, for reads and for failed edits', () => {
    expect(fire(new RuleEngine(), 'tool_result', scope({ workspace: { testCommand: null } }))).toEqual([]);
    expect(fire(new RuleEngine(), 'tool_result', scope({ task: { testsRun: true } }))).toEqual([]);
    expect(fire(new RuleEngine(), 'tool_result', scope({ event: { tool: 'read', category: 'read' } }))).toEqual([]);
    expect(fire(new RuleEngine(), 'tool_result', scope({ event: { isError: true } }))).toEqual([]);
  });

  it('in plan mode, reminds to present the plan and wait for confirmation; not in act mode', () => {
    const fired = fire(new RuleEngine(), 'prompt_submit', scope({ session: { mode: 'plan' } }));
    expect(fired.map((f) => f.id)).toEqual(['builtin.plan-confirm']);
    expect(fired[0]?.actions[0]?.text).toMatch(/present the plan .* wait for the person to confirm/);
    expect(fire(new RuleEngine(), 'prompt_submit', scope())).toEqual([]);
  });
});
