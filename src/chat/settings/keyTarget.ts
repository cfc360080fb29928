import type { KeelConfig } from '../../core/config';
import { CUSTOM_PROVIDER } from '../../core/config';
import { originOf, providerOrigin } from '../../core/model';
import type { KeelSettings } from './settingsLayer';

/**
 * The origin a key stored now for `provider` is paired with: where the person's own settings
 * send that provider (keel.baseUrl for the custom endpoint or a moved preset, else the config's
 * endpoint, else the regional or resource endpoint `env` names, else the preset's or OpenAI's).
 */
export function keyOriginFor(provider: string, settings: KeelSettings, config: KeelConfig | undefined, env: Record<string, string | undefined>): string {
  const moved = settings.baseUrl && (provider === CUSTOM_PROVIDER || provider === settings.provider);
  if (moved) return originOf(settings.baseUrl!);
  return providerOrigin(provider, config?.providers[provider], env);
}
