import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { explainDirectFailure, needsOwnClient, openRequest } from './network';

/** Hops fetch follows before it gives up, as the Fetch standard says. */
const MAX_REDIRECTS = 20;
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);

/** fetch's own failure: a TypeError "fetch failed" whose cause says what happened. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** A TypeError from fetch with its cause named (a TLS failure), or the error as it was. */
function withNamedCause(err: unknown, target: URL): unknown {
  if (!(err instanceof TypeError) || err.cause === undefined) return err;
  const named = explainDirectFailure(target, err.cause);
  return named === err.cause ? err : fetchFailed(named);
}

/**
 * fetch for every HTTP client in Keel that takes one (MCP's transports, the fetch tool, the AI
 * SDK's providers). A request that needs no proxy and no TLS options goes to fetch unchanged;
 * otherwise Node's HTTP client carries it through the proxy (see network.ts), and the answer is
 * a standard Response. Failures are fetch's own shape, a TypeError whose cause names a proxy or
 * TLS failure.
 */
export async function netFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const target = new URL(input instanceof Request ? input.url : String(input));
  let own: boolean;
  try {
    own = needsOwnClient(target);
  } catch (err) {
    throw fetchFailed(err);
  }
  if (!own) {
    try {
      return await fetch(input, init);
    } catch (err) {
      throw withNamedCause(err, target);
    }
  }
  const request = new Request(input, init);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = { accept: '*/*' };
  request.headers.forEach((value, key) => (headers[key] = value));
  return send(target, request.method, headers, body, request.redirect, init?.signal ?? (input instanceof Request ? input.signal : undefined), 0);
}

function respond(target: URL, method: string, headers: OutgoingHttpHeaders, body: Buffer | undefined, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const sized = body ? { ...headers, 'content-length': String(body.length) } : headers;
    let opened: ReturnType<typeof openRequest>;
    try {
      opened = openRequest(target, { method, headers: sized, signal });
    } catch (err) {
      return reject(fetchFailed(err));
    }
    opened.req.on('error', (err) => reject(signal?.aborted ? signal.reason : fetchFailed(opened.explain(err))));
    opened.req.on('response', resolve);
    opened.req.end(body);
  });
}

async function send(
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  redirect: RequestRedirect,
  signal: AbortSignal | undefined,
  hops: number,
): Promise<Response> {
  const res = await respond(target, method, headers, body, signal);
  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if (status >= 300 && status < 400 && location !== undefined && redirect !== 'manual') {
    res.resume();
    if (redirect === 'error') throw fetchFailed(new Error(`redirect to ${location} refused (redirect: "error")`));
    if (hops >= MAX_REDIRECTS) throw fetchFailed(new Error(`more than ${MAX_REDIRECTS} redirects`));
    const next = new URL(location, target);
    const next303 = status === 303 || ((status === 301 || status === 302) && method === 'POST');
    const nextHeaders = { ...headers };
    if (next.origin !== target.origin) delete nextHeaders.authorization;
    if (next303) {
      delete nextHeaders['content-type'];
      return send(next, method === 'HEAD' ? 'HEAD' : 'GET', nextHeaders, undefined, redirect, signal, hops + 1);
    }
    return send(next, method, nextHeaders, body, redirect, signal, hops + 1);
  }
  return toResponse(res, target, method, hops > 0);
}

function decoded(res: IncomingMessage): Readable {
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  // pipeline carries an error of either stream to the other, so a failed body errors the Response's stream.
  return decoder ? pipeline(res, decoder, () => undefined) : res;
}

function toResponse(res: IncomingMessage, target: URL, method: string, redirected: boolean): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const status = res.statusCode ?? 0;
  const empty = nullBodyStatus.has(status) || method === 'HEAD';
  if (empty) res.resume();
  let response: Response;
  try {
    const body = empty ? null : (Readable.toWeb(decoded(res)) as unknown as ReadableStream<Uint8Array>);
    response = new Response(body, { status, statusText: res.statusMessage ?? '', headers });
  } catch (err) {
    res.destroy();
    throw fetchFailed(err);
  }
  // fetch's answers say where they came from; a constructed Response would say "".
  Object.defineProperty(response, 'url', { value: target.href });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}
