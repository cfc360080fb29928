import * as l10n from '@vscode/l10n';
import { reasoningChoices } from '../../core/model';
import type { ReasoningChoice } from '../../core/model';
import type { SettingsSection } from './settingsSection';

const isChoice = (value: unknown): value is ReasoningChoice => typeof value === 'string' && (reasoningChoices as readonly string[]).includes(value);

/**
 * `keel.reasoning`: the reasoning the person chose, by model, from the user settings only (the
 * setting is the person's, whatever the workspace). Entries that are not a choice are left out
 * and named in `problems`.
 */
export function readReasoningSettings(section: SettingsSection, problems: string[]): Record<string, ReasoningChoice> {
  const value = section.inspect<unknown>('reasoning')?.globalValue;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(l10n.t('keel.{0} must map model names to a reasoning choice; a value that is not one is ignored.', 'reasoning'));
    return {};
  }
  const out: Record<string, ReasoningChoice> = {};
  for (const [model, choice] of Object.entries(value)) {
    if (model.trim() !== '' && isChoice(choice)) out[model] = choice;
    else problems.push(l10n.t('keel.{0}: "{1}" is not one of {2}; that entry is ignored.', 'reasoning', `${model}: ${String(choice)}`, reasoningChoices.join(', ')));
  }
  return out;
}

/**
 * The user setting's value after the person chose `choice` for `model`: `default` removes the
 * model's entry (nothing is sent for it); the other models' entries stay as they were.
 */
export function withReasoningChoice(current: unknown, model: string, choice: ReasoningChoice): Record<string, unknown> {
  const next: Record<string, unknown> = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  if (choice === 'default') delete next[model];
  else next[model] = choice;
  return next;
}
