import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long a sign-in may take in the browser before Keel stops waiting. */
export const signInTimeoutMs = 5 * 60_000;

/** The path of the loopback redirect URI (`http://127.0.0.1:<port>/callback`). */
export const callbackPath = '/callback';

/**
 * A free port on 127.0.0.1 for the redirect listener, which binds it later: `preferred` (the
 * port a stored client was registered with) while it is free, else one the system picks.
 */
export async function freeLoopbackPort(preferred?: number): Promise<number> {
  if (preferred !== undefined) {
    const port = await bindAndRelease(preferred).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' || (err as NodeJS.ErrnoException).code === 'EACCES') return undefined;
      throw err;
    });
    if (port !== undefined) return port;
  }
  return bindAndRelease(0);
}

async function bindAndRelease(port: number): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

export interface RedirectWait {
  port: number;
  /** The `state` Keel sent; a redirect with another one is refused and the wait goes on. */
  state: string;
  timeoutMs: number;
  /** Names the server in errors and on the page the browser shows. */
  server: string;
  signal?: AbortSignal;
}

/**
 * Listens on 127.0.0.1:`port` for the one browser redirect that ends a sign-in and resolves
 * with its authorization code. A request with a wrong `state` gets a 400 and does not end the
 * wait (it is not the sign-in Keel started); an `error` from the authorization server, the
 * timeout or the signal end it with an error. The port is closed as soon as the wait ends.
 * Resolves once the port is bound (rejects when it cannot be), with the code to come.
 */
export async function waitForRedirect(w: RedirectWait): Promise<{ code: Promise<string> }> {
  let settle: { resolve(code: string): void; reject(err: Error): void } = { resolve: () => undefined, reject: () => undefined };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Behind a proxy (code-server's /proxy/<port>/) the path may keep a prefix.
    if (!url.pathname.endsWith(callbackPath) || done) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (url.searchParams.get('state') !== w.state) {
      page(res, 400, 'This sign-in link is not the one Keel is waiting for (its state does not match). Start the sign-in again from Keel.');
      return;
    }
    const error = url.searchParams.get('error');
    const got = url.searchParams.get('code');
    if (error) {
      const description = url.searchParams.get('error_description');
      page(res, 400, `Sign-in to "${w.server}" failed: ${error}${description ? ` (${description})` : ''}. You can close this tab.`);
      finish(new Error(`the authorization server refused the sign-in: ${error}${description ? ` (${description})` : ''}`));
      return;
    }
    if (!got) {
      page(res, 400, 'The redirect carries no authorization code. Start the sign-in again from Keel.');
      finish(new Error('the browser came back without an authorization code'));
      return;
    }
    page(res, 200, `Signed in to "${w.server}". You can close this tab and go back to Keel.`);
    finish(got);
  });
  const timer = setTimeout(
    () => finish(new Error(`no sign-in arrived within ${Math.ceil(w.timeoutMs / 1000)} s; sign in again when you are ready`)),
    w.timeoutMs,
  );
  const onAbort = () => finish(new Error('the sign-in was cancelled'));
  w.signal?.addEventListener('abort', onAbort, { once: true });
  function finish(result: string | Error): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    w.signal?.removeEventListener('abort', onAbort);
    // Lets the answer page reach the browser, then stops listening.
    server.close();
    server.closeIdleConnections();
    if (typeof result === 'string') settle.resolve(result);
    else settle.reject(result);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      // Nobody holds `code` yet: the wait ends here, with this error.
      done = true;
      clearTimeout(timer);
      w.signal?.removeEventListener('abort', onAbort);
      reject(new Error(`cannot listen for the sign-in redirect on 127.0.0.1:${w.port} (${err.code ?? err.message})`));
    });
    server.listen(w.port, '127.0.0.1', () => resolve());
  });
  if (w.signal?.aborted) onAbort();
  return { code };
}

function page(res: import('node:http').ServerResponse, status: number, text: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>Keel</title><p>${escapeHtml(text)}</p>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' }).end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
