import { chatParser, chatRequest } from './chatWire';
import type { ChatFlavor } from './chatWire';
import { LeanLanguageModel } from './leanLanguageModel';
import { responsesParser, responsesRequest } from './responsesWire';
import type { WireEndpoint } from './wireHttp';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A Chat Completions model (OpenAI's or an OpenAI-compatible server's) on Keel's own parser. */
export function leanChatModel(provider: string, modelId: string, flavor: ChatFlavor, endpoint: WireEndpoint): LeanLanguageModel {
  const wire = { request: (id: string, options: Parameters<typeof chatRequest>[2]) => chatRequest(id, flavor, options), parser: chatParser };
  return new LeanLanguageModel(`${provider}.chat`, modelId, wire, { ...endpoint, baseURL: trimSlash(endpoint.baseURL) });
}

/** A model on OpenAI's Responses API on Keel's own parser. */
export function leanResponsesModel(provider: string, modelId: string, endpoint: WireEndpoint): LeanLanguageModel {
  const wire = { request: responsesRequest, parser: responsesParser };
  return new LeanLanguageModel(`${provider}.responses`, modelId, wire, { ...endpoint, baseURL: trimSlash(endpoint.baseURL) });
}
