import type { IncomingMessage } from 'node:http';
import type { CallOptions, StreamPart, Warning } from './modelSpec';

/** One request on a wire: where it goes and what it carries. */
export interface WireRequest {
  path: string;
  body: Record<string, unknown>;
  warnings: Warning[];
}

/** Reads one response's events; `end` runs once after the last event of a stream that ended well. */
export interface WireParser {
  data(data: string): void;
  end(): void;
}

/** A wire protocol: how a call becomes a request and how the events become stream parts. */
export interface Wire {
  request(modelId: string, options: CallOptions): WireRequest;
  parser(emit: (part: StreamPart) => void): WireParser;
  /**
   * How the events come off the response, each handed to the parser as text; server-sent
   * events when absent. `onRead` runs after the events of each piece read off the network.
   */
  read?(response: IncomingMessage, onData: (data: string) => void, onRead: () => void): Promise<void>;
}

/**
 * The request with the conversation's prompt-cache key (`providerOptions.openai.promptCacheKey`)
 * as `prompt_cache_key`, the field both OpenAI APIs take; unchanged when the call has none.
 * Only for endpoints that accept the field: some compatible servers reject unknown fields.
 */
export function withPromptCacheKey(request: WireRequest, options: CallOptions): WireRequest {
  const key = options.providerOptions?.openai?.promptCacheKey;
  if (typeof key !== 'string' || key === '') return request;
  return { ...request, body: { ...request.body, prompt_cache_key: key } };
}
