import * as l10n from '@vscode/l10n';
import { KeelError } from '../errors';
import type { ConfigLayer } from './configSchema';
import type { PresetName } from '../model/presetNames';

/** The provider a bare base URL (a VS Code setting, a CLI flag, OPENAI_BASE_URL) becomes. */
export const CUSTOM_PROVIDER = 'custom';

export interface EndpointSettings {
  /** A known endpoint by name (deepseek, ollama...): its base URL and key variable come with it. */
  preset?: PresetName;
  /** An OpenAI-compatible endpoint; absent or empty means OpenAI itself (or the preset's). */
  baseURL?: string;
  model?: string;
  planModel?: string;
  smallModel?: string;
}

export interface EndpointLayer {
  layer: ConfigLayer;
  /** The provider the models default to, and whose API key the host should supply. */
  provider: string;
}

/**
 * Turns "an endpoint and model names" (how people configure a single server) into a config
 * layer. With a base URL the endpoint becomes the `custom` provider and every model name is
 * taken as that endpoint knows it (`openai/gpt-4.1` on OpenRouter stays on OpenRouter), so it
 * becomes `custom/<model>`; only aliases defined in the config files and models of the given
 * model sources are kept as they are.
 */
export function endpointLayer(
  settings: EndpointSettings,
  known: { aliases?: readonly string[]; sources?: readonly string[] } = {},
): EndpointLayer {
  const baseURL = settings.baseURL?.trim();
  const layer: ConfigLayer = {};
  if (baseURL && !isHttpUrl(baseURL)) {
    throw new KeelError('config', l10n.t('The base URL "{0}" is not a valid http(s) URL.', baseURL));
  }
  const aliases = new Set(known.aliases ?? []);
  // Models of other sources (VS Code's language models: `vscode-lm/…`) keep their source.
  const sources = (known.sources ?? []).map((name) => `${name}/`);
  const onProvider = (provider: string) => (model: string) =>
    aliases.has(model) || model.startsWith(`${provider}/`) || sources.some((prefix) => model.startsWith(prefix)) ? model : `${provider}/${model}`;
  if (settings.preset) {
    // Model names are the preset endpoint's own; a base URL only moves that endpoint.
    if (baseURL) layer.providers = { [settings.preset]: { preset: settings.preset, baseURL } };
    assign(layer, settings, onProvider(settings.preset));
    return { layer, provider: settings.preset };
  }
  if (!baseURL) {
    assign(layer, settings, (model) => model);
    return { layer, provider: 'openai' };
  }
  layer.providers = { [CUSTOM_PROVIDER]: { baseURL, api: 'chat' } };
  assign(layer, settings, onProvider(CUSTOM_PROVIDER));
  return { layer, provider: CUSTOM_PROVIDER };
}

function assign(layer: ConfigLayer, settings: EndpointSettings, name: (model: string) => string): void {
  const model = settings.model?.trim();
  const planModel = settings.planModel?.trim();
  const smallModel = settings.smallModel?.trim();
  if (model) layer.model = name(model);
  if (planModel) layer.planModel = name(planModel);
  if (smallModel) layer.smallModel = name(smallModel);
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}
