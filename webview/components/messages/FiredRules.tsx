import type { FiredRuleInfo } from '../../../src/protocol/uiMessage';
import { Icon } from '../../ui/Icon';

const ACTION_LABEL: Record<FiredRuleInfo['actions'][number]['type'], string> = {
  reminder: 'reminded the agent',
  inject_context: 'added context',
  notify: 'notified you',
};

/**
 * The event rules that fired on a turn: their notices to the person in plain sight, and a
 * small "N rules" marker that opens to what each rule did.
 */
export function FiredRules({ rules }: { rules: readonly FiredRuleInfo[] }) {
  const notices = rules.flatMap((r) => r.actions.filter((a) => a.type === 'notify').map((a) => ({ rule: r.id, text: a.text })));
  return (
    <div className="message-rules">
      {notices.map((n, i) => (
        <p key={i} className="message-rule-notice" role="status" data-testid="rule-notice" title={`From rule ${n.rule}`}>
          <Icon name="bell" /> {n.text}
        </p>
      ))}
      <details className="message-rules-list" data-testid="rules-marker">
        <summary title={rules.map((r) => `${r.id} (${r.event})`).join('\n')}>
          <Icon name="checklist" /> {rules.length === 1 ? '1 rule' : `${rules.length} rules`}
        </summary>
        <ul>
          {rules.map((r, i) => (
            <li key={i} data-testid="fired-rule">
              <code>{r.id}</code> <span className="message-rules-meta">{r.source} · {r.event}</span>
              {r.actions.map((a, j) => (
                <div key={j} className="message-rules-action">
                  {ACTION_LABEL[a.type]}: {a.text}
                </div>
              ))}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
