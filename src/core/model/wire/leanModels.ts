import { chatParser, chatRequest } from './chatWire';
import type { ChatFlavor } from './chatWire';
import { LeanLanguageModel } from './leanLanguageModel';
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
