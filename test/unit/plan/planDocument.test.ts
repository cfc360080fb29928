import { describe, expect, it } from 'vitest';
import { executionPrompt, planSteps, planTodos, refinePrompt } from '../../../src/core/plan/planDocument';

const plan = `# Plan: add validation

## Goal
Reject bad input in \`parse\`.

## Steps
1. Add a **schema** in \`src/parse.ts\` (touches src/parse.ts)
   - detail that is not a step
2. Call it from [the CLI](src/cli.ts)

\`\`\`ts
1. not a step either
\`\`\`
3) Add tests in test/parse.test.ts

## Risks
1. Callers that pass strings

## Verification
- npm test
`;

describe('planSteps', () => {
  it('takes the top-level items of the Steps section, as plain text', () => {
    expect(planSteps(plan)).toEqual([
      'Add a schema in src/parse.ts (touches src/parse.ts)',
      'Call it from the CLI',
      'Add tests in test/parse.test.ts',
    ]);
  });

  it('accepts bullets under a Steps heading of any level, with CRLF line ends', () => {
    expect(planSteps('### Implementation steps\r\n- one\r\n* two\r\n### Risks\r\n- none')).toEqual(['one', 'two']);
  });

  it('falls back to the numbered items of the whole document when there is no Steps section', () => {
    expect(planSteps('Do this:\n1. first\n- not numbered\n2. second')).toEqual(['first', 'second']);
  });

  it('finds nothing in a plan without a list', () => {
    expect(planSteps('Just change the constant.')).toEqual([]);
  });

  it('cuts a very long step to one short line', () => {
    const [step] = planSteps(`## Steps\n1. ${'x'.repeat(500)}`);
    expect(step!.length).toBe(200);
    expect(step!.endsWith('…')).toBe(true);
  });
});

describe('plan prompts', () => {
  it('turns the steps into a pending todo list with stable ids', () => {
    expect(planTodos(plan).map((t) => [t.id, t.status])).toEqual([
      ['step-1', 'pending'],
      ['step-2', 'pending'],
      ['step-3', 'pending'],
    ]);
  });

  it('sends the plan text itself as the task, and names the todo ids', () => {
    const prompt = executionPrompt(plan, planTodos(plan));
    expect(prompt).toContain('Add a **schema**');
    expect(prompt).toContain('step-1…step-3');
    expect(prompt).toMatch(/<plan>\n# Plan: add validation[\s\S]*npm test\n<\/plan>$/);
  });

  it('puts the feedback and the current plan in a refine request', () => {
    const prompt = refinePrompt('## Steps\n1. a', 'also handle b');
    expect(prompt).toContain('<feedback>\nalso handle b\n</feedback>');
    expect(prompt).toContain('<plan>\n## Steps\n1. a\n</plan>');
  });
});
