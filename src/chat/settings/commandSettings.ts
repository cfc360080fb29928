import * as l10n from '@vscode/l10n';
import { patternProblem } from '../../core/shell';
import type { SettingsSection } from './settingsSection';

export interface CommandSettings {
  allow: string[];
  deny: string[];
}

/**
 * `keel.commands.allow` / `keel.commands.deny`. Allow rules come from the user settings only
 * (a workspace's are reported by readKeelSettings). Deny rules of every scope add up (user,
 * workspace, folder): a workspace may ask more, never less. Bad entries are left out and named.
 */
export function readCommandSettings(section: SettingsSection, problems: string[]): CommandSettings {
  return {
    allow: readList(section, 'commands.allow', false, problems),
    deny: readList(section, 'commands.deny', true, problems),
  };
}

function readList(section: SettingsSection, setting: string, workspaceValues: boolean, problems: string[]): string[] {
  const inspected = section.inspect<unknown>(setting);
  if (!inspected) return [];
  const values = workspaceValues ? [inspected.globalValue, inspected.workspaceValue, inspected.workspaceFolderValue] : [inspected.globalValue];
  const out = new Set<string>();
  for (const value of values) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      problems.push(l10n.t('keel.{0} must be a list of commands; a value that is not one is ignored.', setting));
      continue;
    }
    for (const entry of value) {
      const problem = typeof entry === 'string' ? patternProblem(entry) : l10n.t('entries must be strings');
      if (problem) problems.push(l10n.t('keel.{0}: {1}; that entry is ignored.', setting, problem));
      else out.add(entry as string);
    }
  }
  return [...out];
}
