import type { ModelMessage } from 'ai';
import type { RuleAction } from './ruleTypes';

export interface PendingAction extends RuleAction {
  ruleId: string;
}

/**
 * The user message that carries rules' reminders and context to the model with one request.
 * It is sent, not kept in history: the session log has the `rules` record instead.
 */
export function ruleMessage(actions: readonly PendingAction[]): ModelMessage | undefined {
  const parts: string[] = [];
  for (const a of actions) {
    if (a.type === 'inject_context') parts.push(`<context source="keel rule ${a.ruleId}">\n${a.text}\n</context>`);
  }
  const reminders = actions.filter((a) => a.type === 'reminder');
  if (reminders.length > 0) {
    const lines = reminders.map((a) => `- ${a.text}`);
    parts.push(`<system-reminder>\nFrom Keel's event rules (not written by the person):\n${lines.join('\n')}\n</system-reminder>`);
  }
  if (parts.length === 0) return undefined;
  return { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] };
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
