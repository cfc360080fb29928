import * as vscode from 'vscode';
import type { LogFn } from '../protocol/log';
import type { ApiKeyStore } from './apiKeyStore';
import { keyProvider, readKeelSettings } from '../chat/settingsLayer';

/**
 * "Keel: Set API Key": asks for the key of the provider in use (keel.baseUrl's endpoint,
 * else the model's provider, else OpenAI) and keeps it in SecretStorage. Empty input removes it.
 */
export async function setApiKeyInteractively(keys: ApiKeyStore, knownProviders: readonly string[], log: LogFn): Promise<void> {
  const { settings } = readKeelSettings(vscode.workspace.getConfiguration('keel'), vscode.workspace.isTrusted);
  const provider = keyProvider(settings, knownProviders);
  const where = settings.baseUrl ? ` for ${settings.baseUrl}` : provider === 'openai' ? ' for OpenAI' : '';
  const key = await vscode.window.showInputBox({
    title: `Keel: API key${where}`,
    prompt: `Stored in VS Code's secret storage as the key of provider "${provider}". Leave empty to remove it.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'sk-…',
  });
  if (key === undefined) return;
  const remove = key.trim() === '';
  await keys.set(provider, remove ? null : key);
  log('info', `API key for provider "${provider}" ${remove ? 'removed' : 'stored'}`);
  void vscode.window.showInformationMessage(remove ? `Keel: the API key for "${provider}" was removed.` : `Keel: API key for "${provider}" saved.`);
}
