import * as l10n from '@vscode/l10n';
import type { LanguageModel } from 'ai';
import { KeelError } from '../errors';
import type { KeelConfig, ModelPrice, ProviderConfig } from '../config/configSchema';
import { catalogueEntry, modelPrice } from './modelCatalogue';
import { chosenReasoning } from './reasoning';
import type { ReasoningChoice, ReasoningSupport } from './reasoning';
import { parseModelRef } from './modelRef';
import { knownContextWindow } from './contextWindows';
import { fetchEndpointModels } from './endpointModels';
import type { EndpointModels, ProviderEndpoint } from './endpointModels';
import { effectiveProvider } from './providerPresets';
import type { EffectiveProvider } from './providerPresets';
import { OPENAI_BASE_URL, originOf, presetOrigin, providerOrigin } from './keyOrigin';
import type { PairedKey } from './keyOrigin';
import { leanChatModel, leanResponsesModel } from './wire/leanModels';
import { createSdkModel, isSdkApi, sdkDefaultBaseURL } from './sdkEndpoints';
import type { ProviderApi } from '../config/configSchema';

export type ModelPurpose = 'model' | 'planModel' | 'smallModel';

export interface ResolvedModel {
  /** `provider/model`, as shown to the person. */
  id: string;
  provider: string;
  modelId: string;
  model: LanguageModel;
  contextWindow?: number;
  /** Whether the model accepts image parts (unknown models are assumed not to). */
  supportsImages: boolean;
  /** Its price (the person's `prices`, else the catalogue's); absent when unknown. */
  price?: ModelPrice;
  /** How its reasoning is chosen (the provider's `models` config, else the catalogue); absent when it has none to choose. */
  reasoning?: ReasoningSupport;
  /** The person's own settings for its calls (their provider's `models` entry), never a workspace's. */
  settings?: { maxOutputTokens?: number; temperature?: number };
}

/** A model's reasoning as the composer offers it: the levels it takes and the person's choice. */
export interface ModelReasoning {
  /** `provider/model`: the key the choice is stored under. */
  id: string;
  support: ReasoningSupport;
  choice: ReasoningChoice;
}

/** A model a source offers, for the model picker. */
export interface SourceModel {
  /** The id without the source's name (`<source>/<id>` is what the person picks). */
  id: string;
  label?: string;
  contextWindow?: number;
}

/** A model source added by a plugin or the host (for example VS Code's language models). */
export interface ProviderFactory {
  name: string;
  createModel(modelId: string): LanguageModel;
  contextWindow?(modelId: string): number | undefined;
  supportsImages?(modelId: string): boolean;
  /** The models it offers now, listed in the model picker. */
  listModels?(): SourceModel[];
  /** A model id to use when no model is configured at all (none means it offers no default). */
  defaultModel?(): string | undefined;
}


export interface ModelRegistryOptions {
  config: KeelConfig;
  /**
   * The config of the person's own layers (no workspace's): a key from the environment goes
   * only to the endpoint these give its provider, or to its preset's own. Default: `config`.
   */
  personal?: KeelConfig;
  env: Record<string, string | undefined>;
  /** Keys the person gave (secret storage, flags), by provider name, each only for its origin; looked up before the environment. */
  apiKeys?: Record<string, PairedKey | undefined>;
  factories?: ProviderFactory[];
}

// Translated when thrown: the host or CLI configures the catalogue after this module loads.
const setupHint = (): string =>
  l10n.t(
    'Set "model" (for example "openai/gpt-4.1" with OPENAI_API_KEY, or a provider with a baseURL for Ollama, LM Studio, vLLM and other OpenAI-compatible servers). In VS Code: Settings › Keel › Model and "Keel: Set API Key". On the command line: --model, --base-url, --api-key or OPENAI_BASE_URL / OPENAI_API_KEY.',
  );

export class ModelRegistry {
  private readonly opts: ModelRegistryOptions;
  /** Endpoint model lists, asked once per registry (it is rebuilt when the configuration changes). */
  private readonly listed = new Map<string, Promise<EndpointModels>>();
  constructor(opts: ModelRegistryOptions) {
    this.opts = opts;
  }

  /**
   * The configured model id for a purpose; planModel and smallModel fall back to model, and
   * model, when nothing configures one, to the first model source that offers a default.
   */
  configuredId(purpose: ModelPurpose = 'model'): string | undefined {
    const c = this.opts.config;
    if (purpose === 'planModel') return c.planModel ?? c.model ?? this.sourceDefault();
    if (purpose === 'smallModel') return c.smallModel ?? c.model ?? this.sourceDefault();
    return c.model ?? this.sourceDefault();
  }

  /** Models the sources (plugins, the host) offer, as `<source>/<id>`. */
  /** A model ref's provider and id, model sources (`vscode-lm/…`) counting as providers. */
  parse(ref: string): { provider: string; modelId: string } {
    return parseModelRef(ref, this.opts.config, (this.opts.factories ?? []).map((f) => f.name));
  }

  sourceModels(): SourceModel[] {
    return (this.opts.factories ?? []).flatMap((f) => (f.listModels?.() ?? []).map((m) => ({ ...m, id: `${f.name}/${m.id}` })));
  }

  private sourceDefault(): string | undefined {
    for (const f of this.opts.factories ?? []) {
      const id = f.defaultModel?.();
      if (id) return `${f.name}/${id}`;
    }
    return undefined;
  }

  /**
   * The reasoning choice of the model a purpose uses (or `explicit`), without building it;
   * undefined when the model has none to choose or does not resolve.
   */
  reasoning(purpose: ModelPurpose = 'model', explicit?: string): ModelReasoning | undefined {
    const ref = explicit ?? this.configuredId(purpose);
    if (!ref) return undefined;
    let parsed: { provider: string; modelId: string };
    try {
      parsed = this.parse(ref);
    } catch (err) {
      // An alias loop or an empty id: resolve() says so when a run needs the model.
      if (err instanceof KeelError) return undefined;
      throw err;
    }
    const support = this.reasoningSupport(parsed.provider, parsed.modelId);
    if (!support) return undefined;
    const id = `${parsed.provider}/${parsed.modelId}`;
    return { id, support, choice: chosenReasoning(id, this.opts.config.reasoning) };
  }

  private reasoningSupport(provider: string, modelId: string): ReasoningSupport | undefined {
    if (this.opts.factories?.some((f) => f.name === provider)) return undefined;
    const own = this.provider(provider)?.models?.[modelId]?.reasoning;
    if (own === false) return undefined;
    return own ?? catalogueEntry(modelId)?.reasoning;
  }

  resolve(purpose: ModelPurpose = 'model', explicit?: string): ResolvedModel {
    const resolved = this.resolveModel(purpose, explicit);
    const price = modelPrice(resolved.id, this.opts.config.prices);
    const reasoning = this.reasoningSupport(resolved.provider, resolved.modelId);
    return { ...resolved, ...(price ? { price } : {}), ...(reasoning ? { reasoning } : {}) };
  }

  private resolveModel(purpose: ModelPurpose, explicit: string | undefined): ResolvedModel {
    const ref = explicit ?? this.configuredId(purpose);
    if (!ref) throw new KeelError('model_not_configured', l10n.t('No model is configured. {0}', setupHint()));
    const { provider, modelId } = this.parse(ref);
    const factory = this.opts.factories?.find((f) => f.name === provider);
    if (factory) {
      return {
        id: `${provider}/${modelId}`,
        provider,
        modelId,
        model: factory.createModel(modelId),
        contextWindow: factory.contextWindow?.(modelId),
        supportsImages: factory.supportsImages?.(modelId) ?? false,
      };
    }
    const pconf = this.provider(provider);
    if (!pconf) {
      throw new KeelError('model_unknown', l10n.t('Unknown model provider "{0}" in "{1}". {2}', provider, ref, setupHint()));
    }
    const apiKey = this.apiKey(provider, pconf);
    if (!apiKey && pconf.needsKey) {
      const held = this.opts.apiKeys?.[provider];
      const elsewhere = held?.key
        ? l10n.t(' The key you gave for "{0}" belongs to {1}, and this provider now sends to {2}; Keel sends a key only where you paired it.', provider, held.origin, requestOrigin(pconf))
        : '';
      throw new KeelError(
        'api_key_missing',
        l10n.t('No API key for provider "{0}".{1} Set {2} or use "Keel: Set API Key" in VS Code.', provider, elsewhere, this.keyEnvName(provider, pconf)),
      );
    }
    const api = pconf.api ?? 'chat';
    const contextWindow = pconf.models?.[modelId]?.contextWindow ?? pconf.contextWindow ?? knownContextWindow(modelId);
    const own = (this.opts.personal ?? this.opts.config).providers[provider]?.models?.[modelId];
    const settings = { ...(own?.maxOutputTokens ? { maxOutputTokens: own.maxOutputTokens } : {}), ...(own?.temperature !== undefined ? { temperature: own.temperature } : {}) };
    return {
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
      id: `${provider}/${modelId}`,
      provider,
      modelId,
      model: createModel(provider, modelId, api, pconf, apiKey, this.opts.env),
      contextWindow,
      supportsImages: pconf.models?.[modelId]?.images ?? /gpt-4o|gpt-4\.1|gpt-5|o3|o4|vision|vl\b|llava|claude|gemini|nova-(?:lite|pro|premier)/i.test(modelId),
    };
  }

  /**
   * Where a provider's requests go and with which key, for asking the endpoint itself (its
   * model list). Undefined for providers that are not plain HTTP endpoints (host factories).
   */
  endpoint(provider: string): ProviderEndpoint | undefined {
    if (this.opts.factories?.some((f) => f.name === provider)) return undefined;
    const pconf = this.provider(provider);
    // The SDK providers' APIs list their models their own way (or not at all), which this asking does not do.
    if (!pconf || isSdkApi(pconf.api)) return undefined;
    return { provider, baseURL: pconf.baseURL ?? OPENAI_BASE_URL, apiKey: this.apiKey(provider, pconf), headers: pconf.headers };
  }

  /** What the provider's endpoint lists at `/models`; a failed answer is asked again next time. */
  endpointModels(provider: string, fetchImpl?: typeof fetch): Promise<EndpointModels> | undefined {
    const endpoint = this.endpoint(provider);
    if (!endpoint) return undefined;
    let pending = this.listed.get(provider);
    if (!pending) {
      pending = fetchEndpointModels(endpoint, fetchImpl);
      this.listed.set(provider, pending);
      void pending.then((result) => {
        if (!result.ok) this.listed.delete(provider);
      });
    }
    return pending;
  }

  /**
   * The provider with its preset's defaults, and the base URL of its region or resource (Vertex,
   * Bedrock, Azure) when its config names none.
   */
  private provider(name: string): EffectiveProvider | undefined {
    const pconf = effectiveProvider(name, this.opts.config.providers[name]);
    if (!pconf || pconf.baseURL !== undefined) return pconf;
    const baseURL = sdkDefaultBaseURL(pconf.api, pconf, this.opts.env);
    return baseURL ? { ...pconf, baseURL } : pconf;
  }

  private keyEnvName(provider: string, pconf: ProviderConfig | undefined): string {
    if (pconf?.apiKeyEnv) return pconf.apiKeyEnv;
    return provider === 'openai' ? 'OPENAI_API_KEY' : `KEEL_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
  }

  /**
   * The key for a request to this provider's endpoint, only where the person paired it: a
   * given key with its origin; an environment key with the endpoint of the person's own
   * layers or the preset's own.
   */
  private apiKey(provider: string, pconf: ProviderConfig | undefined): string | undefined {
    const origin = requestOrigin(pconf);
    const held = this.opts.apiKeys?.[provider];
    if (held?.key && held.origin === origin) return held.key;
    const fromEnv = this.opts.env[this.keyEnvName(provider, pconf)];
    if (!fromEnv) return undefined;
    const personal = this.opts.personal ?? this.opts.config;
    const own = personal.providers[provider];
    const paired = [providerOrigin(provider, own, this.opts.env), presetOrigin(provider)];
    return paired.includes(origin) ? fromEnv : undefined;
  }
}

function requestOrigin(pconf: ProviderConfig | undefined): string {
  return originOf(pconf?.baseURL ?? OPENAI_BASE_URL);
}

/**
 * Both OpenAI wires run on Keel's own lean parser (src/core/model/wire): the AI SDK's
 * providers cost far more CPU per streamed token. Endpoints given by base URL speak
 * Chat Completions the OpenAI-compatible way (`max_tokens`; `reasoning_content` or
 * `reasoning` deltas, as DeepSeek, vLLM and Ollama send them, are read either way).
 */
function createModel(
  provider: string,
  modelId: string,
  api: ProviderApi,
  pconf: ProviderConfig | undefined,
  apiKey: string | undefined,
  env: Record<string, string | undefined>,
): LanguageModel {
  if (isSdkApi(api)) return createSdkModel(api, provider, modelId, { baseURL: pconf?.baseURL, apiKey, headers: pconf?.headers }, pconf ?? {}, env);
  const endpoint = { baseURL: pconf?.baseURL ?? OPENAI_BASE_URL, apiKey, headers: pconf?.headers };
  // OpenAI's own endpoint takes `prompt_cache_key`; another only when the person says it does.
  const lean = { cacheKey: pconf?.promptCacheKey ?? originOf(endpoint.baseURL) === originOf(OPENAI_BASE_URL) };
  if (api === 'responses') return leanResponsesModel(provider, modelId, endpoint, lean);
  return leanChatModel(provider, modelId, pconf?.baseURL ? 'compatible' : 'openai', endpoint, lean);
}
