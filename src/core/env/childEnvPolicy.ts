import type { KeelConfig } from '../config/configSchema';
import { providerPresets } from '../model/providerPresets';
import type { ChildEnvPolicy } from './childEnv';

/**
 * The policy for a configuration: the person's `shellEnv.allow` (a workspace's never reaches
 * the merged config), and every variable Keel may read a key from (the presets' and each
 * configured provider's `apiKeyEnv`), which no child gets even when it is named.
 */
export function childEnvPolicy(config: Pick<KeelConfig, 'shellEnv' | 'providers'>): ChildEnvPolicy {
  const keyNames = new Set<string>();
  for (const preset of Object.values(providerPresets)) if (preset.apiKeyEnv) keyNames.add(preset.apiKeyEnv);
  for (const provider of Object.values(config.providers)) if (provider.apiKeyEnv) keyNames.add(provider.apiKeyEnv);
  return { allow: [...config.shellEnv.allow], keyNames: [...keyNames] };
}
