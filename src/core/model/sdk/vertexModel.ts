import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { withCacheBreakpoints } from '../wire/cacheBreakpoints';
import { anthropicUrls, ephemeral } from '../wire/messagesRequest';
import { geminiUrls, withGeminiThoughts } from './geminiModel';
import { importSdk, LazySdkModel, noRedirects } from './lazySdkModel';

export interface VertexEndpoint {
  /** The regional endpoint's origin, e.g. `https://us-east5-aiplatform.googleapis.com`. */
  baseURL: string;
  project: string;
  location: string;
  /** An express-mode API key (Gemini models only); without one, Application Default Credentials. */
  apiKey?: string;
  headers?: Record<string, string>;
}

type VertexSdk = typeof import('./vertexSdk');

/** Claude models on Vertex speak Anthropic's Messages API (rawPredict); the rest are Gemini. */
export function isVertexAnthropic(modelId: string): boolean {
  return /^claude/i.test(modelId);
}

/** Where Vertex serves a location: `global`, the `us`/`eu` multi-regions, or `{location}-aiplatform`. */
export function vertexOrigin(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com';
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com`;
  return `https://${location}-aiplatform.googleapis.com`;
}

/** Express mode (a key, no project) is served by Vertex's global host, not a regional one. */
function expressRoot(root: string): string {
  return /(^|\.)aiplatform\.googleapis\.com$/.test(new URL(root).hostname) ? 'https://aiplatform.googleapis.com' : root;
}

/**
 * A model on Google Vertex AI through the AI SDK's Vertex providers, loaded on the first call:
 * Gemini models (generateContent), and Anthropic's Claude models (rawPredict, with Keel's cache
 * breakpoints and signed thinking as on Anthropic's own API). Credentials are the person's
 * Application Default Credentials (`gcloud auth application-default login`, a service account
 * file in GOOGLE_APPLICATION_CREDENTIALS, or the metadata server), never a workspace's.
 */
export class VertexModel extends LazySdkModel {
  readonly supportedUrls: Record<string, RegExp[]>;
  private readonly anthropic: boolean;

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: VertexEndpoint,
  ) {
    const anthropic = isVertexAnthropic(modelId);
    super(`${provider}.vertex.${anthropic ? 'anthropic' : 'gemini'}`, modelId);
    this.anthropic = anthropic;
    this.supportedUrls = anthropic ? anthropicUrls : { '*': [...geminiUrls['*'], /^gs:\/\/.*$/] };
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createGoogleVertex, createGoogleVertexAnthropic } = await importSdk<VertexSdk>('vertexSdk');
    const { project, location, headers } = this.endpoint;
    const root = this.endpoint.baseURL.replace(/\/+$/, '');
    if (this.anthropic) {
      const sdk = createGoogleVertexAnthropic({ project, location, headers, fetch: noRedirects, baseURL: `${root}/v1/projects/${project}/locations/${location}/publishers/anthropic/models` });
      return sdk.languageModel(this.modelId) as LanguageModelSpec;
    }
    const sdk = createGoogleVertex({
      project,
      location,
      headers,
      fetch: noRedirects,
      // An empty key keeps the SDK from reading GOOGLE_VERTEX_API_KEY itself, past Keel's pairing rule.
      apiKey: this.endpoint.apiKey ?? '',
      baseURL: this.endpoint.apiKey ? `${expressRoot(root)}/v1/publishers/google` : `${root}/v1beta1/projects/${project}/locations/${location}/publishers/google`,
    });
    return sdk.languageModel(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return this.anthropic ? withCacheBreakpoints(options, 'anthropic', ephemeral) : withGeminiThoughts(options, this.modelId);
  }
}
