import { KeelError } from '../errors';
import type { ConfigLayer } from './configSchema';

/** The provider a bare base URL (a VS Code setting, a CLI flag, OPENAI_BASE_URL) becomes. */
export const CUSTOM_PROVIDER = 'custom';

export interface EndpointSettings {
  /** An OpenAI-compatible endpoint; absent or empty means OpenAI itself. */
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
  if (!baseURL) {
    assign(layer, settings, (model) => model);
    return { layer, provider: 'openai' };
  }
  if (!isHttpUrl(baseURL)) {
    throw new KeelError('config', `The base URL "${baseURL}" is not a valid http(s) URL.`);
  }
  layer.providers = { [CUSTOM_PROVIDER]: { baseURL, api: 'chat' } };
  const aliases = new Set(known.aliases ?? []);
  // Models of other sources (VS Code's language models: `vscode-lm/…`) keep their source.
  const kept = [CUSTOM_PROVIDER, ...(known.sources ?? [])].map((name) => `${name}/`);
  assign(layer, settings, (model) => (aliases.has(model) || kept.some((prefix) => model.startsWith(prefix)) ? model : `${CUSTOM_PROVIDER}/${model}`));
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
