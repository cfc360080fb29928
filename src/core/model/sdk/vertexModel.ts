import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { withCacheBreakpoints } from '../wire/cacheBreakpoints';
import { leanGeminiModel } from '../wire/leanModels';
import { anthropicUrls, ephemeral } from '../wire/messagesRequest';
import { adcHeaders } from './googleAuth';
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
 * A Gemini model on Vertex AI, on Keel's own generateContent wire: with an express-mode key at
 * Vertex's global `/v1/publishers/google`, else at the project's location with a bearer token of
 * the person's Application Default Credentials (`gcloud auth application-default login`, a
 * service account file in GOOGLE_APPLICATION_CREDENTIALS, or the metadata server), never a
 * workspace's.
 */
export function vertexGeminiModel(provider: string, modelId: string, endpoint: VertexEndpoint): LanguageModelSpec {
  const { project, location, apiKey, headers } = endpoint;
  const root = endpoint.baseURL.replace(/\/+$/, '');
  if (apiKey) return leanGeminiModel(provider, modelId, { baseURL: `${expressRoot(root)}/v1/publishers/google`, apiKey, headers }, true);
  const baseURL = `${root}/v1beta1/projects/${project}/locations/${location}/publishers/google`;
  return leanGeminiModel(provider, modelId, { baseURL, headers, sign: adcHeaders }, true);
}

/**
 * A Claude model on Google Vertex AI through the AI SDK's Vertex Anthropic provider (rawPredict),
 * loaded on the first call, with Keel's cache breakpoints and signed thinking as on Anthropic's
 * own API. Credentials are the person's Application Default Credentials, never a workspace's.
 */
export class VertexModel extends LazySdkModel {
  readonly supportedUrls = anthropicUrls;

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: VertexEndpoint,
  ) {
    super(`${provider}.vertex.anthropic`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createGoogleVertexAnthropic } = await importSdk<VertexSdk>('vertexSdk');
    const { project, location, headers } = this.endpoint;
    const root = this.endpoint.baseURL.replace(/\/+$/, '');
    const sdk = createGoogleVertexAnthropic({ project, location, headers, fetch: noRedirects, baseURL: `${root}/v1/projects/${project}/locations/${location}/publishers/anthropic/models` });
    return sdk.languageModel(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return withCacheBreakpoints(options, 'anthropic', ephemeral);
  }
}
