import * as l10n from '@vscode/l10n';
import type { FiredRuleInfo } from '../../../src/protocol/uiMessage';
import { Icon } from '../../ui/Icon';

// Built at render time: the page's locale is applied after the modules load.
const actionLabel = (type: FiredRuleInfo['actions'][number]['type']): string =>
  type === 'reminder' ? l10n.t('reminded the agent') : type === 'inject_context' ? l10n.t('added context') : l10n.t('notified you');

/**
 * The event rules that fired on a turn: their notices to the person in plain sight, and a
 * small "N rules" marker that opens to what each rule did.
 */
export function FiredRules({ rules }: { rules: readonly FiredRuleInfo[] }) {
  const notices = rules.flatMap((r) => r.actions.filter((a) => a.type === 'notify').map((a) => ({ rule: r.id, text: a.text })));
  return (
    <div className="message-rules">
      {notices.map((n, i) => (
        <p key={i} className="message-rule-notice" role="status" data-testid="rule-notice" title={l10n.t('From rule {0}', n.rule)}>
          <Icon name="bell" /> {n.text}
        </p>
      ))}
      <details className="message-rules-list" data-testid="rules-marker">
        <summary title={rules.map((r) => `${r.id} (${r.event})`).join('\n')}>
          <Icon name="checklist" /> {rules.length === 1 ? l10n.t('1 rule') : l10n.t('{0} rules', rules.length)}
        </summary>
        <ul>
          {rules.map((r, i) => (
            <li key={i} data-testid="fired-rule">
              <code>{r.id}</code> <span className="message-rules-meta">{r.source} · {r.event}</span>
              {r.actions.map((a, j) => (
                <div key={j} className="message-rules-action">
                  {actionLabel(a.type)}: {a.text}
                </div>
              ))}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
