import type { RuleAction } from './ruleTypes';

export interface PendingAction extends RuleAction {
  ruleId: string;
}

/**
 * The text that carries rules' reminders and context to the model: part of the person's
 * message when they fired on its events, else a message of its own before the next turn.
 * Kept in the history like any message, so later requests start with it.
 */
export function ruleText(actions: readonly PendingAction[]): string {
  const parts: string[] = [];
  for (const a of actions) {
    if (a.type === 'inject_context') parts.push(`<context source="keel rule ${a.ruleId}">\n${a.text}\n</context>`);
  }
  const reminders = actions.filter((a) => a.type === 'reminder');
  if (reminders.length > 0) {
    const lines = reminders.map((a) => `- ${a.text}`);
    parts.push(`<system-reminder>\nFrom Keel's event rules (not written by the person):\n${lines.join('\n')}\n</system-reminder>`);
  }
  return parts.join('\n\n');
}

/** Actions for one request without repeats (two edits of one turn remind once). */
export function dedupeActions(actions: readonly PendingAction[]): PendingAction[] {
  const seen = new Set<string>();
  return actions.filter((a) => {
    const key = `${a.type}\u0000${a.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True for the text ruleText writes (a view shows the rules that fired instead, and a title skips it). */
export function isRuleText(text: string): boolean {
  return text.startsWith('<context source="keel rule ') || text.startsWith("<system-reminder>\nFrom Keel's event rules");
}
