import * as z from 'zod';
import { causeChain } from '../causeChain';
import { netFetch } from '../net/netFetch';
import { errorMessage } from '../errors';

/** Where a provider's OpenAI-compatible endpoint is, and how to authenticate to it. */
export interface ProviderEndpoint {
  provider: string;
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

const modelsBody = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

/** Most endpoints answer in well under a second; a model picker should not wait on a dead one. */
const LIST_TIMEOUT_MS = 5_000;
/** OpenRouter lists hundreds; the picker shows the configured ones first and this many more. */
export const MAX_LISTED_MODELS = 300;

export type EndpointModels = { ok: true; ids: string[] } | { ok: false; reason: string };

/**
 * The model ids an OpenAI-compatible endpoint offers (`GET {baseURL}/models`). Endpoints
 * without that route, or unreachable ones, give a reason instead of throwing: the caller
 * still has the configured models to show.
 */
export async function fetchEndpointModels(
  endpoint: ProviderEndpoint,
  fetchImpl: typeof fetch = netFetch,
  signal?: AbortSignal,
): Promise<EndpointModels> {
  const url = `${endpoint.baseURL.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> = { accept: 'application/json', ...endpoint.headers };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const timeout = AbortSignal.timeout(LIST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetchImpl(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    return { ok: false, reason: timeout.aborted ? `${url} did not answer within ${LIST_TIMEOUT_MS / 1000} s` : `${url}: ${causeChain(err).map(errorMessage).join(': ')}` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, reason: `${url} answered ${response.status}${response.status === 404 ? ' (the endpoint has no model list)' : ''}` };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, reason: `${url} did not answer with JSON` };
  }
  const parsed = modelsBody.safeParse(body);
  if (!parsed.success) return { ok: false, reason: `${url} answered without a "data" list of models` };
  const ids = [...new Set(parsed.data.data.map((m) => m.id))].sort((a, b) => a.localeCompare(b));
  return { ok: true, ids: ids.slice(0, MAX_LISTED_MODELS) };
}
