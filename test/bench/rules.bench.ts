import { RuleEngine } from '../../src/core/rules/ruleEngine';
import { parseRulesFile } from '../../src/core/rules/ruleFiles';
import type { Scope } from '../../src/core/rules/expressionEval';
import type { CompiledRule } from '../../src/core/rules/ruleTypes';
import type { Bench, BenchSuite } from './benchTypes';

/** 200 rules (the file's cap), each with a condition of the documented kind and a templated text. */
function rulesFileText(): string {
  const rules = Array.from({ length: 200 }, (_, i) => ({
    id: `rule-${i}`,
    on: i % 4 === 0 ? ['tool_result', 'task_complete'] : 'tool_result',
    if: `event.tool in ["edit", "write"] && (event.path.endsWith(".ext${i}") || event.path.matches("^src/.*\\\\.(sql|ts)$")) && !task.testsRun`,
    priority: i % 7,
    actions: [{ type: 'reminder', text: `Rule ${i}: you changed {{event.path}}; run {{workspace.testCommand}}.` }],
    ...(i % 3 === 0 ? { throttle: { key: `k${i}:{{event.path}}`, ttlSeconds: 0.001 } } : {}),
  }));
  return JSON.stringify({ rules });
}

const scope: Scope = {
  event: { name: 'tool_result', tool: 'edit', category: 'write', path: 'src/db/schema.sql', paths: ['src/db/schema.sql'], isError: false, output: 'x'.repeat(10_000) },
  session: { id: 's', mode: 'act', turn: 3, approvalMode: 'manual', messages: 40 },
  task: { number: 1, edits: ['src/db/schema.sql'], commands: [], testsRun: false, toolCalls: 3, failedTools: 0 },
  workspace: { name: 'app', folders: ['app'], testCommand: 'npm test', trusted: true },
};

const file = { path: '/bench/.keel/rules.json', source: 'workspace' as const };

const loadBench: Bench<string> = {
  name: 'read and compile a rules file of 200 rules',
  target: '< 20 ms',
  limit: 20,
  runs: 15,
  warmup: 2,
  setup: rulesFileText,
  run(text) {
    const loaded = parseRulesFile(text, file);
    if (loaded.rules.length !== 200) throw new Error(loaded.problems.join('\n'));
  },
};

let task = 0;
const runBench: Bench<CompiledRule[]> = {
  name: 'one tool_result event through 200 matching rules',
  target: '< 5 ms',
  limit: 5,
  runs: 15,
  warmup: 2,
  setup: () => parseRulesFile(rulesFileText(), file).rules,
  run(rules) {
    const engine = new RuleEngine();
    const run = engine.run(rules, 'tool_result', scope, ++task);
    if (run.fired.length !== 200) throw new Error(`expected every rule to fire, got ${run.fired.length}`);
  },
};

export const suite: BenchSuite = { name: 'rules', benches: [loadBench, runBench] };
