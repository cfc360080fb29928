import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { withCacheBreakpoints } from './cacheBreakpoints';
import { importSdk, LazySdkModel, noRedirects } from './lazySdkModel';

export interface AnthropicEndpoint {
  /** Base URL up to the API version, e.g. `https://api.anthropic.com/v1`. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

type AnthropicSdk = typeof import('./anthropicSdk');

export const ephemeral = { cacheControl: { type: 'ephemeral' } };

/** Images and PDFs by URL go to the API as URLs; anything else the SDK inlines first. */
export const anthropicUrls: Record<string, RegExp[]> = { 'image/*': [/^https:\/\/.*$/], 'application/pdf': [/^https:\/\/.*$/] };

/**
 * A model on Anthropic's Messages API through the AI SDK's Anthropic provider, loaded on the
 * first call. Keel places the prompt-cache breakpoints (cacheBreakpoints.ts); thinking blocks
 * come back with their signatures in the reasoning parts' providerOptions, which the loop and
 * the session log keep.
 */
export class AnthropicMessagesModel extends LazySdkModel {
  readonly supportedUrls = anthropicUrls;

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: AnthropicEndpoint,
  ) {
    super(`${provider}.messages`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createAnthropic } = await importSdk<AnthropicSdk>('anthropicSdk');
    const sdk = createAnthropic({
      baseURL: this.endpoint.baseURL.replace(/\/+$/, ''),
      // Without a key the SDK would read ANTHROPIC_API_KEY itself, past Keel's pairing rule.
      apiKey: this.endpoint.apiKey ?? '',
      headers: this.endpoint.headers,
      fetch: noRedirects,
    });
    return sdk.messages(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return withCacheBreakpoints(options, 'anthropic', ephemeral);
  }
}
