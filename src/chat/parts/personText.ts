import { executedPlanOf, planTitle } from '../../core/plan';
import type { UiPart } from '../../protocol/uiMessage';

/**
 * What the person's bubble shows for a text they sent. Executing a plan sends Keel's
 * instructions with the plan inside; the bubble shows "Executing plan: <title>" and the
 * plan instead (live and when the conversation is opened again).
 */
export function personTextPart(text: string): UiPart {
  const plan = executedPlanOf(text);
  return plan === undefined ? { type: 'text', text } : { type: 'planExecution', title: planTitle(plan), plan };
}
