import { compileSpec } from './ruleCompiler';
import type { RuleSpec } from './ruleSchema';
import type { CompiledRule } from './ruleTypes';

/**
 * Keel's own rules, written in the same language as the files' (and turned off the same way,
 * with `"disable": ["builtin.run-tests"]`).
 */
export const builtinRuleSpecs: readonly RuleSpec[] = [
  {
    id: 'builtin.run-tests',
    description: 'After the first edit of a task, remind the model to run the tests when the workspace has a test command and none ran yet.',
    on: 'tool_result',
    if: 'event.category == "write" && !event.isError && workspace.testCommand != null && !task.testsRun',
    throttle: { per: 'task' },
    actions: [
      {
        type: 'reminder',
        text:
          'You changed {{event.path}}. This workspace has a test command ({{workspace.testCommand}}): ' +
          'when your changes are complete, run the tests and fix what they report before you say the task is done.',
      },
    ],
  },
  {
    id: 'builtin.plan-confirm',
    description: 'In plan mode, remind the model to present the plan and wait for confirmation.',
    on: 'prompt_submit',
    if: 'session.mode == "plan"',
    actions: [
      {
        type: 'reminder',
        text:
          'Plan mode: investigate with the read-only tools, then present the plan (numbered steps, the files each ' +
          'step touches, how to verify it) and wait for the person to confirm it. Make no changes and do not say you made any.',
      },
    ],
  },
];

let compiled: CompiledRule[] | undefined;

export function builtinRules(): readonly CompiledRule[] {
  compiled ??= builtinRuleSpecs.map((spec, i) => compileSpec(spec, 'builtin', 'built-in', i));
  return compiled;
}
