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
  const title = settings.baseUrl
    ? vscode.l10n.t('Keel: API key for {0}', settings.baseUrl)
    : provider === 'openai'
      ? vscode.l10n.t('Keel: API key for OpenAI')
      : vscode.l10n.t('Keel: API key');
  const key = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Stored in VS Code\'s secret storage as the key of provider "{0}". Leave empty to remove it.', provider),
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'sk-…',
  });
  if (key === undefined) return;
  const remove = key.trim() === '';
  await keys.set(provider, remove ? null : key);
  log('info', `API key for provider "${provider}" ${remove ? 'removed' : 'stored'}`);
  void vscode.window.showInformationMessage(remove ? vscode.l10n.t('Keel: the API key for "{0}" was removed.', provider) : vscode.l10n.t('Keel: API key for "{0}" saved.', provider));
}
