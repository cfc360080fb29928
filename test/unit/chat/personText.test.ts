// The person's bubble after "Execute plan": the plan's title and the plan, never Keel's
// instructions or the <plan> tags, live and when the session is read back.
import { describe, expect, it } from 'vitest';
import { executionPrompt, planTitle, planTodos } from '../../../src/core/plan/planDocument';
import { personTextPart } from '../../../src/chat/parts/personText';
import { userParts, userUiMessage } from '../../../src/chat/conversations/uiMessages';

const PLAN = '## Goal\nMake `average()` safe for empty lists.\n\n## Steps\n1. Change average in src/math.ts\n2. Add a note';

describe('what the bubble shows for a sent text', () => {
  it('shows an executed plan as its title and the plan, from the text the model got', () => {
    const sent = executionPrompt(PLAN, planTodos(PLAN));
    expect(personTextPart(sent)).toEqual({ type: 'planExecution', title: 'Make average() safe for empty lists.', plan: PLAN });
    const live = userUiMessage('m1', { text: sent }, 1, 'done');
    expect(JSON.stringify(live.parts)).not.toMatch(/<plan>|Execute this plan/);
    expect(userParts(sent)).toEqual([personTextPart(sent)]);
  });

  it('leaves what the person typed alone, even when it talks about plans', () => {
    for (const text of ['Execute this plan please', 'Execute this plan.\n<plan>\nunclosed', 'see <plan>\nx\n</plan>']) {
      expect(personTextPart(text)).toEqual({ type: 'text', text });
    }
  });

  it('names a plan by its heading, else its goal, else its first line', () => {
    expect(planTitle('# Speed up the build\n## Goal\nfaster')).toBe('Speed up the build');
    expect(planTitle('## Goal\n\n**Fewer** [flaky](x) tests\n## Steps\n1. a')).toBe('Fewer flaky tests');
    expect(planTitle('1. Do the thing\n2. Then more')).toBe('Do the thing');
    expect(planTitle('')).toBe('Untitled plan');
    expect(planTitle(`# ${'x'.repeat(200)}`)).toHaveLength(80);
  });
});
