import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { withCacheBreakpoints } from './cacheBreakpoints';
import { importSdk, keyedSettings, LazySdkModel } from './lazySdkModel';
import type { KeyedEndpoint } from './lazySdkModel';

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
    private readonly endpoint: KeyedEndpoint,
  ) {
    super(`${provider}.messages`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createAnthropic } = await importSdk<AnthropicSdk>('anthropicSdk');
    const sdk = createAnthropic(keyedSettings(this.endpoint));
    return sdk.messages(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return withCacheBreakpoints(options, 'anthropic', ephemeral);
  }
}
