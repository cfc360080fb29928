import type { KeelConfig } from '../config/configSchema';
import { providerPresets } from '../model/providerPresets';
import type { ChildEnvPolicy } from './childEnv';

/**
 * The policy for a configuration: the person's `shellEnv.allow` (a workspace's never reaches
 * the merged config), and every variable Keel reads its own keys from — `OPENAI_API_KEY`, the
 * key variable of each provider it is set up to use (a configured provider's `apiKeyEnv`, the
 * preset a provider or model names) — which no child gets even when it is named. Other
 * presets' variables (`ANTHROPIC_API_KEY` when Keel talks to another provider) are the
 * person's own secrets: hidden unless they name them, like any other.
 */
export function childEnvPolicy(config: Pick<KeelConfig, 'shellEnv' | 'providers' | 'model' | 'planModel' | 'smallModel'>): ChildEnvPolicy {
  const keyNames = new Set<string>(['OPENAI_API_KEY']);
  const used = new Set<string>();
  for (const ref of [config.model, config.planModel, config.smallModel]) {
    const slash = ref?.indexOf('/') ?? -1;
    if (ref && slash > 0) used.add(ref.slice(0, slash));
  }
  for (const [name, provider] of Object.entries(config.providers)) {
    used.add(name);
    if (provider.preset) used.add(provider.preset);
    if (provider.apiKeyEnv) keyNames.add(provider.apiKeyEnv);
  }
  for (const name of used) {
    const preset = (providerPresets as Record<string, { apiKeyEnv?: string } | undefined>)[name];
    if (preset?.apiKeyEnv) keyNames.add(preset.apiKeyEnv);
  }
  return { allow: [...config.shellEnv.allow], keyNames: [...keyNames] };
}
