import { patternProblem } from '../core/shell/commandPatterns';
import type { SettingsSection } from './settingsSection';

export interface CommandSettings {
  allow: string[];
  deny: string[];
}

/**
 * `keel.commands.allow` / `keel.commands.deny`. Unlike other settings, the scopes add up
 * (user, workspace, folder), so a workspace cannot remove the person's deny rules. In an
 * untrusted workspace only the user's allow rules count. Bad entries are left out and named.
 */
export function readCommandSettings(section: SettingsSection, workspaceTrusted: boolean, problems: string[]): CommandSettings {
  return {
    allow: readList(section, 'commands.allow', workspaceTrusted, problems),
    deny: readList(section, 'commands.deny', true, problems),
  };
}

function readList(section: SettingsSection, setting: string, workspaceValues: boolean, problems: string[]): string[] {
  const inspected = section.inspect<unknown>(setting);
  if (!inspected) return [];
  const scoped = [inspected.workspaceValue, inspected.workspaceFolderValue];
  if (!workspaceValues && scoped.some((v) => Array.isArray(v) && v.length > 0)) {
    problems.push(`keel.${setting} from the workspace settings is ignored because the workspace is not trusted.`);
  }
  const values = workspaceValues ? [inspected.globalValue, ...scoped] : [inspected.globalValue];
  const out = new Set<string>();
  for (const value of values) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      problems.push(`keel.${setting} must be a list of commands; a value that is not one is ignored.`);
      continue;
    }
    for (const entry of value) {
      const problem = typeof entry === 'string' ? patternProblem(entry) : 'entries must be strings';
      if (problem) problems.push(`keel.${setting}: ${problem}; that entry is ignored.`);
      else out.add(entry as string);
    }
  }
  return [...out];
}
