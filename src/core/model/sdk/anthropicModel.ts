import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallOptions, GenerateResult, LanguageModelSpec, StreamResult } from '../wire/modelSpec';
import { withCacheBreakpoints } from './cacheBreakpoints';

export interface AnthropicEndpoint {
  /** Base URL up to the API version, e.g. `https://api.anthropic.com/v1`. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * Where an SDK provider module is: the build's own file next to the bundle (`dist/<name>.js`),
 * else this folder's source (tests run from source). The specifier is computed so that no
 * bundler folds the provider into the bundle that loads it: esbuild's lazy wrapping of a
 * dynamically imported module breaks zod's initialisation order in the rest of the bundle.
 */
function sdkModuleUrl(name: string): string {
  const built = join(__dirname, `${name}.js`);
  return pathToFileURL(existsSync(built) ? built : join(__dirname, `${name}.ts`)).href;
}

type AnthropicSdk = typeof import('./anthropicSdk');

const ephemeral = { cacheControl: { type: 'ephemeral' } };

/**
 * A key goes only to the origin it was paired with: a redirect would carry it elsewhere, so
 * the SDK's requests refuse to follow one (Keel's own wires never follow redirects either).
 */
const noRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'error' });

/**
 * A model on Anthropic's Messages API through the AI SDK's Anthropic provider, loaded on the
 * first call (a dynamic import, so people who never use Anthropic never load it). Keel places
 * the prompt-cache breakpoints (cacheBreakpoints.ts); thinking blocks come back with their
 * signatures in the reasoning parts' providerOptions, which the loop and the session log keep.
 */
export class AnthropicMessagesModel implements LanguageModelSpec {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  // Images and PDFs by URL go to the API as URLs; anything else the SDK inlines first.
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https:\/\/.*$/], 'application/pdf': [/^https:\/\/.*$/] };
  private loaded: Promise<LanguageModelSpec> | undefined;

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: AnthropicEndpoint,
  ) {
    this.provider = `${provider}.messages`;
    this.modelId = modelId;
  }

  private load(): Promise<LanguageModelSpec> {
    this.loaded ??= (import(/* @vite-ignore */ sdkModuleUrl('anthropicSdk')) as Promise<AnthropicSdk>).then(({ createAnthropic }) => {
      const sdk = createAnthropic({
        baseURL: this.endpoint.baseURL.replace(/\/+$/, ''),
        // Without a key the SDK would read ANTHROPIC_API_KEY itself, past Keel's pairing rule.
        apiKey: this.endpoint.apiKey ?? '',
        headers: this.endpoint.headers,
        fetch: noRedirects,
      });
      return sdk.messages(this.modelId) as LanguageModelSpec;
    });
    return this.loaded;
  }

  async doStream(options: CallOptions): Promise<StreamResult> {
    return (await this.load()).doStream(withCacheBreakpoints(options, 'anthropic', ephemeral));
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    return (await this.load()).doGenerate(withCacheBreakpoints(options, 'anthropic', ephemeral));
  }
}
