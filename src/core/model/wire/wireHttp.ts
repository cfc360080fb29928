import { APICallError } from 'ai';

export interface WireEndpoint {
  /** Base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** For tests and hosts that route requests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

const retryableStatus = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** What an error body says, in the shapes OpenAI and the servers that copy it use. */
function errorText(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { error, message } = parsed as { error?: unknown; message?: unknown };
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    return typeof message === 'string' ? message : undefined;
  } catch (err) {
    // Not JSON (a proxy's HTML page, plain text): the caller says the status instead.
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/**
 * POSTs a streaming request and returns the response once its headers say it succeeded.
 * Failures are the AI SDK's `APICallError`, as its providers throw them, so retry and
 * context-overflow handling treat every wire alike: a status with the body's message, or no
 * status when the connection failed.
 */
export async function postStream(endpoint: WireEndpoint, path: string, body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Response> {
  const url = `${endpoint.baseURL}${path}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', ...endpoint.headers };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let response: Response;
  try {
    response = await (endpoint.fetch ?? fetch)(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    const said = err instanceof Error ? err.message : String(err);
    throw new APICallError({ message: `Cannot connect to API: ${said}`, url, requestBodyValues: body, cause: err, isRetryable: true });
  }
  if (response.ok && response.body) return response;
  const text = await response.text();
  throw new APICallError({
    message: errorText(text) ?? (response.ok ? 'The response had no body' : response.statusText || `HTTP ${response.status}`),
    url,
    requestBodyValues: body,
    statusCode: response.status,
    responseHeaders: headersOf(response),
    responseBody: text,
    isRetryable: retryableStatus(response.status),
  });
}

/** An error the server reported inside a stream that had started well. */
export class WireStreamError extends Error {
  readonly code: string | undefined;
  readonly type: string | undefined;
  constructor(message: string, code?: string, type?: string) {
    super(message);
    this.name = 'WireStreamError';
    this.code = code;
    this.type = type;
  }
}

/** The error of an `{"error": …}` event (or a Responses `error` / `response.failed` event). */
export function streamError(value: unknown): WireStreamError {
  if (typeof value === 'string') return new WireStreamError(value);
  const e = (typeof value === 'object' && value !== null ? value : {}) as { message?: unknown; code?: unknown; type?: unknown };
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  return new WireStreamError(str(e.message) ?? JSON.stringify(value), str(e.code), str(e.type));
}
