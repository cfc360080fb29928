import * as vscode from 'vscode';
import type { LogFn } from '../protocol/log';
import type { ApiKeyStore } from './apiKeyStore';
import { keyProvider } from '../chat/settingsLayer';
import type { KeelConfig } from '../core/config/configSchema';
import { keelSettings } from './keelSettings';
import { keyOriginFor } from '../chat/keyTarget';

/**
 * "Keel: Set API Key": asks for the key of the provider in use (keel.baseUrl's endpoint,
 * else the model's provider, else OpenAI) and keeps it in SecretStorage, paired with the
 * origin that provider sends to now: Keel never sends it anywhere else. Empty input removes it.
 */
export async function setApiKeyInteractively(keys: ApiKeyStore, config: KeelConfig | undefined, log: LogFn): Promise<void> {
  const { settings } = keelSettings();
  const provider = keyProvider(settings, Object.keys(config?.providers ?? {}));
  const origin = keyOriginFor(provider, settings, config);
  const key = await vscode.window.showInputBox({
    title: `Keel: API key for ${origin}`,
    prompt: `Stored in VS Code's secret storage as the key of provider "${provider}", sent only to ${origin}. Leave empty to remove it.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'sk-…',
  });
  if (key === undefined) return;
  const remove = key.trim() === '';
  await keys.set(provider, origin, remove ? null : key);
  log('info', `API key for provider "${provider}" at ${origin} ${remove ? 'removed' : 'stored'}`);
  void vscode.window.showInformationMessage(remove ? `Keel: the API key for "${provider}" (${origin}) was removed.` : `Keel: API key for "${provider}" saved; it is sent only to ${origin}.`);
}
