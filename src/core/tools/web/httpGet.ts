import { netFetch } from '../../net/netFetch';

/** Redirects followed before giving up. */
export const maxRedirects = 5;

export class FetchError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FetchError';
  }
}

export interface HttpResponse {
  url: string;
  status: number;
  statusText: string;
  contentType: string;
  body: Buffer;
  /** The body was longer than the cap and was cut. */
  truncated: boolean;
  redirects: string[];
}

/** Accepts only http and https; anything else (file:, data:, ftp:, javascript:) is refused. */
export function assertWebUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new FetchError(`Not a valid URL: ${JSON.stringify(url)}.`, { cause: err });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new FetchError(`Only http and https URLs can be fetched, not ${parsed.protocol} (${url}).`);
  }
  return parsed;
}

/**
 * GET with redirects followed by hand, so every hop is checked (a redirect to file: or to a
 * sixth hop is refused), and the body read up to maxBytes.
 */
export async function httpGet(url: string, opts: { signal: AbortSignal; maxBytes: number; userAgent: string }): Promise<HttpResponse> {
  const redirects: string[] = [];
  let current = assertWebUrl(url).href;
  for (;;) {
    const res = await netFetch(current, {
      redirect: 'manual',
      signal: opts.signal,
      headers: {
        'user-agent': opts.userAgent,
        accept: 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,*/*;q=0.5',
      },
    });
    if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
      await res.body?.cancel();
      if (redirects.length >= maxRedirects) {
        throw new FetchError(`Too many redirects (more than ${maxRedirects}) starting at ${url}.`);
      }
      const next = new URL(res.headers.get('location') ?? '', current).href;
      assertWebUrl(next);
      redirects.push(next);
      current = next;
      continue;
    }
    const { body, truncated } = await readCapped(res, opts.maxBytes);
    return {
      url: current,
      status: res.status,
      statusText: res.statusText,
      contentType: res.headers.get('content-type') ?? '',
      body,
      truncated,
      redirects,
    };
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!res.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks), truncated: false };
    const room = maxBytes - size;
    if (value.length >= room) {
      chunks.push(value.subarray(0, room));
      const hasMore = value.length > room || !(await reader.read()).done;
      await reader.cancel();
      return { body: Buffer.concat(chunks), truncated: hasMore };
    }
    chunks.push(value);
    size += value.length;
  }
}
