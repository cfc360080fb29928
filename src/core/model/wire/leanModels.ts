import { chatParser, chatRequest } from './chatWire';
import type { ChatFlavor } from './chatWire';
import { LeanLanguageModel } from './leanLanguageModel';
import { withCacheBreakpoints } from './cacheBreakpoints';
import { geminiParser } from './geminiParser';
import { geminiApi, geminiRequest, geminiUrls, vertexGemini } from './geminiRequest';
import type { GeminiFlavor } from './geminiRequest';
import { messagesParser } from './messagesParser';
import { anthropicUrls, ephemeral, messagesRequest } from './messagesRequest';
import type { MessagesFlavor } from './messagesRequest';
import type { LanguageModelSpec } from './modelSpec';
import { responsesParser, responsesRequest } from './responsesWire';
import { withPromptCacheKey } from './wire';
import type { Wire } from './wire';
import type { WireEndpoint } from './wireHttp';

/** `cacheKey`: the endpoint takes `prompt_cache_key` (OpenAI's does; others when configured so). */
export interface LeanModelOptions {
  cacheKey?: boolean;
}

const keyed = (request: Wire['request'], opts: LeanModelOptions): Wire['request'] =>
  opts.cacheKey ? (id, options) => withPromptCacheKey(request(id, options), options) : request;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A Chat Completions model (OpenAI's or an OpenAI-compatible server's) on Keel's own parser. */
export function leanChatModel(provider: string, modelId: string, flavor: ChatFlavor, endpoint: WireEndpoint, opts: LeanModelOptions = {}): LeanLanguageModel {
  const wire = { request: keyed((id, options) => chatRequest(id, flavor, options), opts), parser: chatParser };
  return new LeanLanguageModel(`${provider}.chat`, modelId, wire, { ...endpoint, baseURL: trimSlash(endpoint.baseURL) });
}

/** A model on OpenAI's Responses API on Keel's own parser. */
export function leanResponsesModel(provider: string, modelId: string, endpoint: WireEndpoint, opts: LeanModelOptions = {}): LeanLanguageModel {
  const wire = { request: keyed(responsesRequest, opts), parser: responsesParser };
  return new LeanLanguageModel(`${provider}.responses`, modelId, wire, { ...endpoint, baseURL: trimSlash(endpoint.baseURL) });
}

/** Anthropic's API version header; the Messages API's streaming format is fixed by it. */
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * A model on Anthropic's Messages API on Keel's own parser, with Keel's prompt-cache
 * breakpoints (cacheBreakpoints.ts). On Anthropic's API the key goes as `x-api-key`, never as a
 * bearer token; on Vertex AI (`flavor` vertex, `baseURL` up to `…/publishers/anthropic/models`)
 * the endpoint's `sign` authorizes each request. `maxOutput` is the model's output limit when
 * the catalogue knows it.
 */
export function leanMessagesModel(provider: string, modelId: string, endpoint: WireEndpoint, maxOutput: number | undefined, flavor: MessagesFlavor = 'anthropic'): LanguageModelSpec {
  const wire: Wire = {
    request: (id, options) => messagesRequest(id, withCacheBreakpoints(options, 'anthropic', ephemeral), maxOutput, flavor),
    parser: messagesParser,
  };
  const headers: Record<string, string> = flavor === 'vertex' ? { ...endpoint.headers } : { 'anthropic-version': ANTHROPIC_VERSION, ...endpoint.headers };
  if (endpoint.apiKey) headers['x-api-key'] = endpoint.apiKey;
  const target = { baseURL: trimSlash(endpoint.baseURL), headers, ...(endpoint.sign ? { sign: endpoint.sign } : {}) };
  return new LeanLanguageModel(`${provider}.${flavor === 'vertex' ? 'vertex.anthropic' : 'messages'}`, modelId, wire, target, anthropicUrls);
}

/**
 * A model on Google's generateContent (streamed as SSE) on Keel's own parser: the Gemini API's
 * (`vertex` false: the key goes as `x-goog-api-key`, never in the URL), or Vertex AI's for Gemini
 * models (`vertex` true: `baseURL` up to `…/publishers/google`, with an express-mode key or the
 * endpoint's `sign` (a bearer token)). Gemini caches repeated prefixes itself (implicit caching, reported
 * as cached input); Keel's append-only requests make those hits.
 */
export function leanGeminiModel(provider: string, modelId: string, endpoint: WireEndpoint, vertex = false): LanguageModelSpec {
  const flavor: GeminiFlavor = vertex ? vertexGemini : geminiApi;
  const wire: Wire = { request: (id, options) => geminiRequest(id, options, flavor), parser: geminiParser(flavor.names) };
  const headers: Record<string, string> = { ...endpoint.headers };
  if (endpoint.apiKey) headers['x-goog-api-key'] = endpoint.apiKey;
  // Vertex also reads files from Cloud Storage.
  const urls = vertex ? { '*': [...geminiUrls['*'], /^gs:\/\/.*$/] } : geminiUrls;
  const target = { baseURL: trimSlash(endpoint.baseURL), headers, ...(endpoint.sign ? { sign: endpoint.sign } : {}) };
  return new LeanLanguageModel(`${provider}.${vertex ? 'vertex.gemini' : 'gemini'}`, modelId, wire, target, urls);
}
