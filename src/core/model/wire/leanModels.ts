import { chatParser, chatRequest } from './chatWire';
import type { ChatFlavor } from './chatWire';
import { LeanLanguageModel } from './leanLanguageModel';
import { withCacheBreakpoints } from './cacheBreakpoints';
import { messagesParser } from './messagesParser';
import { anthropicUrls, ephemeral, messagesRequest } from './messagesRequest';
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
 * breakpoints (cacheBreakpoints.ts). The key goes as `x-api-key`, never as a bearer token.
 * `maxOutput` is the model's output limit when the catalogue knows it.
 */
export function leanMessagesModel(provider: string, modelId: string, endpoint: WireEndpoint, maxOutput: number | undefined): LanguageModelSpec {
  const wire: Wire = {
    request: (id, options) => messagesRequest(id, withCacheBreakpoints(options, 'anthropic', ephemeral), maxOutput),
    parser: messagesParser,
  };
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...endpoint.headers };
  if (endpoint.apiKey) headers['x-api-key'] = endpoint.apiKey;
  return new LeanLanguageModel(`${provider}.messages`, modelId, wire, { baseURL: trimSlash(endpoint.baseURL), headers }, anthropicUrls);
}
