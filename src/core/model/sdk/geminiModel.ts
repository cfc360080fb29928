import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { importSdk, keyedSettings, LazySdkModel } from './lazySdkModel';
import type { KeyedEndpoint } from './lazySdkModel';

type GoogleSdk = typeof import('./googleSdk');

/** Gemini 2.5 and later think; asked to, they send their thoughts (summaries) as `thought` parts. */
export function geminiThinks(modelId: string): boolean {
  return /gemini-(?:2\.5|[3-9])/i.test(modelId);
}

/**
 * Asks a thinking Gemini model for its thoughts, unless the call already says whether to send
 * them or turns thinking off. The SDK reads `google` options on the Gemini API and on Vertex alike.
 */
export function withGeminiThoughts(options: CallOptions, modelId: string): CallOptions {
  if (!geminiThinks(modelId)) return options;
  const own = options.providerOptions?.google as { thinkingConfig?: Record<string, unknown> } | undefined;
  // Thinking turned off (a budget of 0) has no thoughts to send.
  if (own?.thinkingConfig?.includeThoughts !== undefined || own?.thinkingConfig?.thinkingBudget === 0) return options;
  const thinkingConfig = { ...own?.thinkingConfig, includeThoughts: true };
  return { ...options, providerOptions: { ...options.providerOptions, google: { ...own, thinkingConfig } } };
}

/** Gemini takes images, PDFs, audio and video by URL only from its own file store. */
export const geminiUrls: Record<string, RegExp[]> = { '*': [/^https:\/\/generativelanguage\.googleapis\.com\/v1beta\/files\/.*$/] };

/**
 * A model on the Gemini API (Google AI Studio keys) through the AI SDK's Google provider, loaded
 * on the first call. Gemini caches repeated prefixes itself (implicit caching, reported as cached
 * input); Keel's append-only requests are what make those hits.
 */
export class GeminiModel extends LazySdkModel {
  readonly supportedUrls = geminiUrls;

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: KeyedEndpoint,
  ) {
    super(`${provider}.gemini`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createGoogleGenerativeAI } = await importSdk<GoogleSdk>('googleSdk');
    const sdk = createGoogleGenerativeAI(keyedSettings(this.endpoint));
    return sdk.languageModel(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return withGeminiThoughts(options, this.modelId);
  }
}
