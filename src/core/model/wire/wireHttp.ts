import type { IncomingMessage } from 'node:http';
import { APICallError } from 'ai';
import { openRequest } from '../../net/network';
import { ProxyError, TlsError } from '../../net/netErrors';

export interface WireEndpoint {
  /** Base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /**
   * Authorizes each request anew (AWS SigV4, an OAuth token that expires): given the URL, the
   * headers and the body as they will be sent, returns the headers to add. Rejects when no
   * credentials can be had.
   */
  sign?(url: URL, headers: Record<string, string>, payload: string): Promise<Record<string, string>>;
}

/** As long as undici's fetch waited for headers or body data before giving up. */
const IDLE_TIMEOUT_MS = 300_000;

const retryableStatus = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;

function headersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => resolve(text));
    response.on('error', reject);
  });
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
 * Node's own HTTP client, not fetch: fetch parses HTTP in WebAssembly and hands the body
 * through web streams, which costs a short-lived process (keel run) more CPU than the
 * whole answer. Proxies and extra CAs are the net subsystem's (src/core/net/network.ts).
 * Failures are the AI SDK's `APICallError`, as its providers throw them, so retry and context-overflow handling treat
 * every wire alike: a status with the body's message, or no status when the connection failed.
 */
export async function postStream(endpoint: WireEndpoint, path: string, body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  const payload = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': 'keel',
    'content-length': String(Buffer.byteLength(payload)),
    ...endpoint.headers,
  };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const target = new URL(`${endpoint.baseURL}${path}`);
  if (endpoint.sign) Object.assign(headers, await endpoint.sign(target, headers, payload));
  return send(target, headers, payload, body, signal, MAX_REDIRECTS);
}

const MAX_REDIRECTS = 3;

function send(
  target: URL,
  headers: Record<string, string>,
  payload: string,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
  redirectsLeft: number,
): Promise<IncomingMessage> {
  const url = target.href;
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let opened: ReturnType<typeof openRequest>;
    try {
      opened = openRequest(target, { method: 'POST', headers, signal });
    } catch (err) {
      return reject(new APICallError({ message: `Cannot connect to API: ${(err as Error).message}`, url, requestBodyValues: body, cause: err, isRetryable: false }));
    }
    const { req, explain } = opened;
    req.setTimeout(IDLE_TIMEOUT_MS, () => {
      req.destroy(Object.assign(new Error(`the model endpoint sent nothing for ${IDLE_TIMEOUT_MS / 60_000} minutes`), { code: 'ETIMEDOUT' }));
    });
    req.on('error', (raw) => {
      if (signal?.aborted) return reject(signal.reason);
      const err = explain(raw) as Error;
      // An untrusted certificate or a proxy that said no stays so on a retry; a dropped connection may not.
      const lasting = err instanceof TlsError || (err instanceof ProxyError && 'statusCode' in err);
      reject(new APICallError({ message: `Cannot connect to API: ${err.message}`, url, requestBodyValues: body, cause: err, isRetryable: !lasting }));
    });
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(response);
      const location = status >= 300 && status < 400 ? response.headers.location : undefined;
      if (location !== undefined) {
        response.resume();
        const next = new URL(location, target);
        // Same origin only: the key goes to no origin but the one the person paired it with.
        if ((status === 307 || status === 308) && next.origin === target.origin && redirectsLeft > 0) {
          send(next, headers, payload, body, signal, redirectsLeft - 1).then(resolve, reject);
          return;
        }
        reject(
          new APICallError({
            message: `The endpoint answered ${status} and points to ${next.href}; set that as the base URL (Keel does not follow this redirect with your key).`,
            url,
            requestBodyValues: body,
            statusCode: status,
            responseHeaders: headersOf(response),
            isRetryable: false,
          }),
        );
        return;
      }
      readAll(response).then(
        (text) =>
          reject(
            new APICallError({
              message: errorText(text) ?? (response.statusMessage || `HTTP ${status}`),
              url,
              requestBodyValues: body,
              statusCode: status,
              responseHeaders: headersOf(response),
              responseBody: text,
              isRetryable: retryableStatus(status),
            }),
          ),
        (err: unknown) => reject(signal?.aborted ? signal.reason : err),
      );
    });
    req.end(payload);
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
