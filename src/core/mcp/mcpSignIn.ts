import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * An HTTP MCP server that answered 401 or 403: it wants a signed-in client. Such a server is
 * never retried over the older SSE transport (whose 404 would hide the cause) nor restarted.
 */
export class McpSignInRequired extends Error {
  constructor(readonly status: number) {
    super(`the server needs sign-in (HTTP ${status}); Keel does not sign in to MCP servers yet, so give this server a token in its "headers"`);
    this.name = 'McpSignInRequired';
  }
}

/** The sign-in error for a failed streamable HTTP connect, or undefined when it failed for another reason. */
export function signInRequired(err: unknown): McpSignInRequired | undefined {
  if (err instanceof McpSignInRequired) return err;
  if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403)) return new McpSignInRequired(err.code);
  return undefined;
}
