import * as vscode from 'vscode';
import type { LogFn } from '../../protocol/log';
import type { ApiKeyStore } from './apiKeyStore';
import { keyProvider } from '../../chat/settings/settingsLayer';
import type { KeelConfig } from '../../core/config';
import { keelSettings } from './keelSettings';
import { keyOriginFor } from '../../chat/settings/keyTarget';

/**
 * "Keel: Set API Key": asks for the key of the provider in use (keel.baseUrl's endpoint,
 * else the model's provider, else OpenAI) and keeps it in SecretStorage, paired with the
 * origin that provider sends to now: Keel never sends it anywhere else. Empty input removes it.
 */
export async function setApiKeyInteractively(keys: ApiKeyStore, config: KeelConfig | undefined, log: LogFn): Promise<void> {
  const { settings } = keelSettings();
  const provider = keyProvider(settings, Object.keys(config?.providers ?? {}));
  const origin = keyOriginFor(provider, settings, config, process.env);
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('Keel: API key for {0}', origin),
    prompt: vscode.l10n.t('Stored in VS Code\'s secret storage as the key of provider "{0}", sent only to {1}. Leave empty to remove it.', provider, origin),
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'sk-…',
  });
  if (key === undefined) return;
  const remove = key.trim() === '';
  await keys.set(provider, origin, remove ? null : key);
  log('info', `API key for provider "${provider}" at ${origin} ${remove ? 'removed' : 'stored'}`);
  void vscode.window.showInformationMessage(
    remove ? vscode.l10n.t('Keel: the API key for "{0}" ({1}) was removed.', provider, origin) : vscode.l10n.t('Keel: API key for "{0}" saved; it is sent only to {1}.', provider, origin),
  );
}
