import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * An HTTP MCP server that wants the person to sign in, and Keel may not start that on its own
 * here (VS Code signs in only when the person clicks "Sign in"). Such a server is not
 * restarted and never retried over the older SSE transport.
 */
export class McpSignInRequired extends Error {
  constructor(readonly server: string) {
    super(`"${server}" needs you to sign in`);
    this.name = 'McpSignInRequired';
  }
}

/** The server refused Keel (401/403): never reported as anything else, and not restarted. */
export class McpUnauthorized extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'McpUnauthorized';
  }
}

/** Signing in went wrong (discovery, registration, the browser, the token request). */
export class McpSignInFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpSignInFailed';
  }
}

/** A start that ended in one of these is not retried: restarting cannot help, and would open the browser again. */
export function isAccessError(err: unknown): boolean {
  return err instanceof McpSignInRequired || err instanceof McpUnauthorized || err instanceof McpSignInFailed;
}

/**
 * How Keel authenticates to an HTTP server: it signs in (OAuth), the config gives an
 * Authorization header, or neither is possible here (a host without a token store).
 */
export type AccessMode = 'oauth' | 'header' | 'none';

/** The status of an HTTP answer that says "not signed in" or "not allowed", if `err` is one. */
function deniedStatus(err: unknown): number | undefined {
  if (err instanceof StreamableHTTPError || err instanceof SseError) return err.code === 401 || err.code === 403 ? err.code : undefined;
  return undefined;
}

/**
 * What a failed HTTP request means for the person: a sign-in to do, a refusal (401/403, with
 * what the server said), or undefined when it failed for another reason.
 */
export function accessProblem(err: unknown, mode: AccessMode): Error | undefined {
  if (isAccessError(err)) return err as Error;
  if (err instanceof UnauthorizedError) return new McpUnauthorized(401, `signing in did not give Keel access (${err.message || 'HTTP 401'})`);
  const status = deniedStatus(err);
  if (status === undefined) return undefined;
  const said = err instanceof Error ? err.message : String(err);
  if (mode === 'header') return new McpUnauthorized(status, `the server refused the Authorization header of its config (HTTP ${status}): ${said}`);
  if (mode === 'none') return new McpUnauthorized(status, `the server needs sign-in (HTTP ${status}), and Keel cannot sign in from here; give it a token in its "headers"`);
  return new McpUnauthorized(status, `the server refused access after signing in (HTTP ${status}): ${said}`);
}

/** How many times one request may send the person to sign in (a server that keeps asking for more is refused). */
const maxSignIns = 2;

/**
 * Runs an MCP request; when it failed because the server wants a sign-in that the provider
 * started (the SDK's UnauthorizedError), waits for the person to finish it and runs the
 * request again. `hold` stops the request's timeout while the person is in the browser.
 */
export async function withSignIn<T>(
  run: () => Promise<T>,
  provider: { signedIn(): Promise<boolean> } | undefined,
  hold: () => () => void,
): Promise<T> {
  for (let signIns = 0; ; signIns++) {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof UnauthorizedError) || !provider || signIns >= maxSignIns) throw err;
      const release = hold();
      try {
        if (!(await provider.signedIn())) throw err;
      } finally {
        release();
      }
    }
  }
}
