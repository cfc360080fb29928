import type { KeelConfig } from '../../core/config';
import { isPresetName } from '../../core/model';
import { effectiveProvider, providerPresets } from '../../core/model';
import type { EndpointSummary } from '../../protocol/sessionState';

/**
 * The endpoint a model would be sent to before one is chosen: the provider the settings name
 * (keel.provider, or `custom` for keel.baseUrl), else the only configured provider, else
 * OpenAI (as a bare model id would resolve). The first-run panel asks for a key only when
 * this endpoint needs one; a local server (Ollama, LM Studio, a custom base URL) does not.
 */
export function chosenEndpoint(config: KeelConfig, fromSettings?: string): EndpointSummary {
  const configured = Object.keys(config.providers);
  const name = fromSettings && fromSettings !== 'openai' ? fromSettings : configured.length === 1 ? configured[0]! : 'openai';
  const provider = effectiveProvider(name, config.providers[name]);
  const preset = config.providers[name]?.preset ?? (isPresetName(name) ? name : undefined);
  const label = preset ? providerPresets[preset].label : (provider?.baseURL ?? name);
  const summary: EndpointSummary = { label, needsKey: provider?.needsKey ?? true };
  if (provider?.baseURL) summary.baseURL = provider.baseURL;
  return summary;
}
