import type { ProjectEvent } from '../../core/projectTypes';
import type { RulesRecord } from '../../core/session';
import { MAX_FIRED_RULES, MAX_RULE_TEXT_CHARS } from '../../protocol/limits';
import type { FiredRuleInfo, UiMessage } from '../../protocol/uiMessage';

const SOURCES = new Set<FiredRuleInfo['source']>(['workspace', 'user', 'builtin']);
const ACTIONS = new Set<FiredRuleInfo['actions'][number]['type']>(['inject_context', 'reminder', 'notify']);

/** The fired rules of a live event or a session log record, as the view shows them. */
export function firedRuleInfos(event: string, fired: Extract<ProjectEvent, { type: 'rules_fired' }>['fired'] | RulesRecord['fired']): FiredRuleInfo[] {
  const out: FiredRuleInfo[] = [];
  for (const f of fired) {
    // A log from a newer Keel may hold kinds this view does not know: those are left out.
    if (!SOURCES.has(f.source as FiredRuleInfo['source'])) continue;
    const actions = f.actions.flatMap((a) =>
      ACTIONS.has(a.type as FiredRuleInfo['actions'][number]['type'])
        ? [{ type: a.type as FiredRuleInfo['actions'][number]['type'], text: cap(a.text) }]
        : [],
    );
    out.push({ id: f.id, source: f.source as FiredRuleInfo['source'], event, actions });
  }
  return out;
}

/** The message with more fired rules on it (the newest kept when over the cap). */
export function withRules(message: UiMessage, rules: readonly FiredRuleInfo[]): UiMessage {
  return { ...message, rules: [...(message.rules ?? []), ...rules].slice(-MAX_FIRED_RULES) };
}

/**
 * Where a logged record's marker goes when a conversation is reopened: the message holding
 * its tool call, or the message it names; a prompt's rules go on the answer after it.
 */
export function ruleAnchor(record: RulesRecord, messages: readonly UiMessage[]): string | undefined {
  if (record.toolCallId !== undefined) {
    const id = record.toolCallId;
    return messages.find((m) => m.parts.some((p) => p.type === 'toolCall' && p.toolCallId === id))?.id;
  }
  const at = messages.findIndex((m) => m.id === record.messageId);
  if (at < 0) return undefined;
  if (messages[at]!.role !== 'user') return messages[at]!.id;
  return messages.slice(at + 1).find((m) => m.role === 'assistant')?.id;
}

function cap(text: string): string {
  return text.length <= MAX_RULE_TEXT_CHARS ? text : `${text.slice(0, MAX_RULE_TEXT_CHARS - 1)}…`;
}
