import type { ProviderConfig } from '../config/configSchema';
import { isPresetName } from './presetNames';
import { effectiveProvider, providerPresets } from './providerPresets';
import { sdkDefaultBaseURL } from './sdkEndpoints';

/** Where OpenAI's SDK sends requests when no base URL is set. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * An API key together with the origin the person gave it for. Keel sends a key only to that
 * origin: a key set for one endpoint never follows a base URL that changed or was redirected.
 */
export interface PairedKey {
  key: string;
  origin: string;
}

/** `https://host:port` of a URL; text that is not a URL is its own (never matching) origin. */
export function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

/**
 * The origin a provider's requests go to: its base URL, else the regional or resource endpoint
 * the person's environment names for it (Vertex, Bedrock, Azure: `env`), else its preset's,
 * else OpenAI's. A stored key is paired with this origin.
 */
export function providerOrigin(name: string, config: ProviderConfig | undefined, env: Record<string, string | undefined> = {}): string {
  const pconf = effectiveProvider(name, config);
  const baseURL = pconf?.baseURL ?? sdkDefaultBaseURL(pconf?.api, config ?? {}, env);
  return originOf(baseURL ?? OPENAI_BASE_URL);
}

/** The origin a preset sends to when nobody moved it (undefined for names that are not presets). */
export function presetOrigin(name: string): string | undefined {
  if (!isPresetName(name)) return undefined;
  return originOf(providerPresets[name].baseURL ?? OPENAI_BASE_URL);
}
