import { isContextBlock } from '../llmsContext/contextBlock';
import { isRuleText } from '../rules/ruleMessages';

/**
 * True for a text part Keel attached to a person's message for the model (the workspace
 * context, event rules' reminders): not the person's words, so not shown as theirs.
 */
export function isKeelNote(text: string): boolean {
  return isContextBlock(text) || isRuleText(text);
}
