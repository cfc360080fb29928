import * as l10n from '@vscode/l10n';
import type { RuleInEffectInfo } from '../../../src/protocol/sessionState';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';

function ruleLabel(rule: RuleInEffectInfo): string {
  const status = rule.status === 'cut' ? l10n.t(' (only its start fit)') : rule.status === 'omitted' ? l10n.t(' (left out: no room)') : '';
  const scope = rule.scope === 'global' ? l10n.t(' (yours, every workspace)') : rule.appliesTo ? l10n.t(' (for {0})', rule.appliesTo) : triggerLabel(rule);
  return `${rule.display}${scope}${status}`;
}

/** Why one of the other agents' scoped rules applies. */
function triggerLabel(rule: RuleInEffectInfo): string {
  if (rule.matched) return l10n.t(' ({0} matches {1})', rule.matched.glob, rule.matched.file);
  if (rule.trigger === 'always') return l10n.t(' (always)');
  if (rule.trigger === 'described') return l10n.t(' (listed by its description: the agent reads it when the task fits)');
  return '';
}

/** "Rules in effect: AGENTS.md, …": the rules files the agent followed for the latest request; opens to list them. */
export function RulesInEffect() {
  const rules = useMeta((meta) => meta.rules);
  if (rules.length === 0) return null;
  return (
    <details className="rules-in-effect" data-testid="rules-in-effect">
      <summary>
        <Icon name="law" /> {l10n.t('Rules in effect: {0}', rules.map((rule) => rule.display).join(', '))}
      </summary>
      <ul>
        {rules.map((rule) => (
          <li key={rule.display} className={rule.status === 'included' || rule.status === 'listed' ? undefined : 'rule-partial'}>
            {ruleLabel(rule)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The latest run left the oldest part of the conversation out of a request so it would fit the model. */
export function TrimmedNote() {
  const trimmed = useMeta((meta) => meta.trimmed);
  if (!trimmed) return null;
  const shortened = trimmed.shortenedResults > 0 ? l10n.t(' and {0} long tool result(s) shortened', trimmed.shortenedResults) : '';
  return (
    <div className="trimmed-note" role="status" data-testid="trimmed-note">
      <Icon name="fold" />{' '}
      {l10n.t(
        'The conversation was too long for the model: {0} older message(s) were left out of the request{1} (try {2} of {3}). The session keeps everything, and the agent can look it up.',
        trimmed.droppedMessages,
        shortened,
        trimmed.attempt,
        trimmed.maxAttempts,
      )}
    </div>
  );
}
