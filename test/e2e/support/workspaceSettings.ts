// What the browser tests change on the server's side: the model settings (the user settings
// file, which VS Code watches, so the running extension host follows it: Keel takes its
// endpoint only from the person's own settings, never a workspace's), other settings of the
// workspace, and, afterwards, the conversations the run stored under KEEL_HOME.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { keelHome, projectDir, workspaceKey } from '../../../src/core/paths';

export const SCRIPTED_MODEL = 'scripted-model';

function settingsFile(workspace: string): string {
  return join(workspace, '.vscode', 'settings.json');
}

/** code-server's user settings of this run (runE2e.mjs names the file). */
function userSettingsFile(): string {
  const file = process.env.KEEL_E2E_USER_SETTINGS;
  if (!file) throw new Error('KEEL_E2E_USER_SETTINGS is not set: run the browser tests through scripts/runE2e.mjs (npm run test:e2e)');
  return file;
}

function readSettings(workspace: string): Record<string, unknown> {
  return readSettingsFile(settingsFile(workspace));
}

function readSettingsFile(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} does not hold a JSON object`);
  return { ...parsed };
}

/**
 * Points Keel at an OpenAI-compatible endpoint (keel.baseUrl + keel.model in the user settings,
 * where a person sets them), or with undefined removes both. `workspace` is where tests of an
 * earlier version kept them: they are removed from there too.
 */
export function setModelSettings(workspace: string, endpoint: { baseURL: string; model?: string } | undefined): void {
  const inWorkspace = readSettings(workspace);
  if ('keel.baseUrl' in inWorkspace || 'keel.model' in inWorkspace) {
    delete inWorkspace['keel.baseUrl'];
    delete inWorkspace['keel.model'];
    writeFileSync(settingsFile(workspace), `${JSON.stringify(inWorkspace, null, 2)}\n`);
  }
  const file = userSettingsFile();
  const settings = readSettingsFile(file);
  delete settings['keel.baseUrl'];
  delete settings['keel.model'];
  if (endpoint) {
    settings['keel.baseUrl'] = endpoint.baseURL;
    settings['keel.model'] = endpoint.model ?? SCRIPTED_MODEL;
    // A generated title is one more model request: scripted turns are for the conversation.
    settings['keel.sessionTitles'] ??= 'firstPrompt';
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * The extension host runs with this process's environment (the runner passes it on), so it
 * keeps sessions where keelHome() says; the workspace is a fresh copy per run, so its
 * folder there holds only this run's conversations.
 */
export function workspaceKeelDir(workspace: string): string {
  return projectDir(keelHome(process.env), workspaceKey({ root: workspace }));
}

export function removeStoredConversations(workspace: string): void {
  rmSync(workspaceKeelDir(workspace), { recursive: true, force: true });
}

/** Sets one workspace setting (undefined removes it), as a person would in settings.json. */
export function setWorkspaceSetting(workspace: string, key: string, value: unknown): void {
  const settings = readSettings(workspace);
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(settingsFile(workspace), `${JSON.stringify(settings, null, 2)}\n`);
}

/** Sets one of code-server's user settings of this run (undefined removes it), as a person would. */
export function setUserSetting(key: string, value: unknown): void {
  const file = userSettingsFile();
  const settings = readSettingsFile(file);
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}
