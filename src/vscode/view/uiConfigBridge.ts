import * as vscode from 'vscode';
import type { ApprovalMode } from '../../core/config';
import type { ConfigSetParams, UiConfig } from '../../protocol/uiConfig';
import type { ApiKeyStore } from '../settings/apiKeyStore';
import type { CoreAccess } from '../../chat/runtime/coreAccess';
import { keyEnvName, keyProvider, personalSettings } from '../../chat/settings/settingsLayer';
import { keyOriginFor } from '../../chat/settings/keyTarget';
import { withReasoningChoice } from '../../chat/settings/reasoningSettings';
import { keelSettings } from '../settings/keelSettings';

/**
 * The settings panel's view of Keel's configuration: VS Code settings (what the person set),
 * completed by the config files through the core, and whether a key is stored. Changes are
 * written where they take effect; the key goes to SecretStorage only.
 */
export class UiConfigBridge {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly core: Pick<CoreAccess, 'peek'>,
    private readonly onApprovalMode: (mode: ApprovalMode) => void,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  async get(): Promise<UiConfig> {
    const trusted = vscode.workspace.isTrusted;
    const { settings } = keelSettings();
    const config = this.core.peek()?.ctx.config;
    const provider = keyProvider(settings, Object.keys(config?.providers ?? {}));
    const origin = keyOriginFor(provider, settings, config, this.env);
    const envName = keyEnvName(provider, config?.providers[provider]?.apiKeyEnv);
    return {
      model: settings.model ?? config?.model ?? null,
      planModel: settings.planModel ?? config?.planModel ?? null,
      baseUrl: httpUrlOrNull(settings.baseUrl),
      approvalMode: settings.approvalMode ?? config?.approvalMode ?? 'manual',
      apiKeySet: (await this.keys.has(provider, origin)) || Boolean(this.env[envName]?.trim()),
      workspaceTrusted: trusted,
    };
  }

  async set(params: ConfigSetParams): Promise<UiConfig> {
    if (params.key === 'apiKey') {
      const { settings } = keelSettings();
      const config = this.core.peek()?.ctx.config;
      const provider = keyProvider(settings, Object.keys(config?.providers ?? {}));
      await this.keys.set(provider, keyOriginFor(provider, settings, config, this.env), params.value);
      return this.get();
    }
    const section = vscode.workspace.getConfiguration('keel');
    if (params.key === 'reasoning') {
      // The person's choice for one model: the user setting's other models stay as they are.
      const next = withReasoningChoice(section.inspect('reasoning')?.globalValue, params.model, params.value);
      await section.update('reasoning', Object.keys(next).length > 0 ? next : undefined, vscode.ConfigurationTarget.Global);
      return this.get();
    }
    await section.update(params.key, params.value ?? undefined, targetFor(section, params.key));
    if (params.key === 'approvalMode') this.onApprovalMode(params.value);
    return this.get();
  }
}

/**
 * Where a change takes effect: the workspace when it already overrides the setting (else
 * the user-level write would be shadowed), otherwise the user settings. Personal-only
 * settings (mode, endpoint) are always the person's: written to the user settings.
 */
function targetFor(section: vscode.WorkspaceConfiguration, key: string): vscode.ConfigurationTarget {
  const inspected = section.inspect(key);
  const workspaceAllowed = !personalSettings.has(key);
  if (workspaceAllowed && inspected?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}

function httpUrlOrNull(value: string | undefined): string | null {
  if (!value || !URL.canParse(value)) return null;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:' ? value : null;
}
