import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../core/errors';
import { parseJsonc } from '../../core/mcp';

/**
 * Settings only the person's own (user) settings may set: they widen what Keel may do or move
 * where a key goes. VS Code drops application-scoped values from workspace settings before an
 * extension sees them, so a workspace's attempt is found by reading its files.
 */
export const personalOnlySettings = ['approvalMode', 'sandbox', 'commands.allow', 'shellEnv.allow', 'baseUrl', 'provider'] as const;
export type PersonalOnlySetting = (typeof personalOnlySettings)[number];

export interface WorkspaceSettingValue {
  /** The file that sets it. */
  origin: string;
  setting: PersonalOnlySetting;
  value: unknown;
}

/** Where a workspace keeps settings: each folder's `.vscode/settings.json`, and a `.code-workspace` file's `settings`. */
export interface WorkspaceSettingsFiles {
  folders: readonly string[];
  workspaceFile?: string;
}

export function workspaceSettingsFile(folder: string): string {
  return join(folder, '.vscode', 'settings.json');
}

/** The personal-only `keel.*` settings the workspace's files set; unreadable files are problems, not silence. */
export function scanWorkspaceSettings(where: WorkspaceSettingsFiles): { found: WorkspaceSettingValue[]; problems: string[] } {
  const found: WorkspaceSettingValue[] = [];
  const problems: string[] = [];
  const take = (origin: string, settings: unknown) => {
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return;
    for (const setting of personalOnlySettings) {
      const value = (settings as Record<string, unknown>)[`keel.${setting}`];
      if (value !== undefined) found.push({ origin, setting, value });
    }
  };
  for (const folder of where.folders) {
    const file = workspaceSettingsFile(folder);
    const raw = readJsonc(file, problems);
    if (raw !== undefined) take(file, raw);
  }
  if (where.workspaceFile) {
    const raw = readJsonc(where.workspaceFile, problems);
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) take(where.workspaceFile, (raw as Record<string, unknown>).settings);
  }
  return { found, problems };
}

function readJsonc(file: string, problems: string[]): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(l10n.t('{0}: cannot read it to check Keel\'s settings ({1}).', file, errorMessage(err)));
    return undefined;
  }
  if (text.trim() === '') return undefined;
  try {
    return parseJsonc(text);
  } catch (err) {
    // VS Code reports a broken settings file itself; Keel only could not check it.
    problems.push(l10n.t('{0}: not valid JSON, so Keel could not check it for settings it ignores ({1}).', file, errorMessage(err)));
    return undefined;
  }
}
