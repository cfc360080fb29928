import { catalogueEntry } from '../modelCatalogue';
import type { LanguageModelSpec } from '../wire/modelSpec';
import { leanGeminiModel, leanMessagesModel } from '../wire/leanModels';
import { adcHeaders } from './googleAuth';

export interface VertexEndpoint {
  /** The regional endpoint's origin, e.g. `https://us-east5-aiplatform.googleapis.com`. */
  baseURL: string;
  project: string;
  location: string;
  /** An express-mode API key (Gemini models only); without one, Application Default Credentials. */
  apiKey?: string;
  headers?: Record<string, string>;
}


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
 * A Claude model on Google Vertex AI, on Keel's own Messages wire (rawPredict at the project's
 * location), with Keel's cache breakpoints and signed thinking as on Anthropic's own API and a
 * bearer token of the person's Application Default Credentials, never a workspace's.
 */
export function vertexClaudeModel(provider: string, modelId: string, endpoint: VertexEndpoint): LanguageModelSpec {
  const { project, location, headers } = endpoint;
  const root = endpoint.baseURL.replace(/\/+$/, '');
  const baseURL = `${root}/v1/projects/${project}/locations/${location}/publishers/anthropic/models`;
  return leanMessagesModel(provider, modelId, { baseURL, headers, sign: adcHeaders }, catalogueEntry(modelId)?.maxOutputTokens, 'vertex');
}
