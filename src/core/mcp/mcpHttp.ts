import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from '../errors';
import { netFetch } from '../net/netFetch';
import type { McpServerConfig } from './mcpConfig';
import type { McpOAuthHost, SignInMode } from './mcpOAuthProvider';
import { McpOAuthProvider } from './mcpOAuthProvider';
import type { AccessMode } from './mcpSignIn';
import { McpSignInFailed, accessProblem, withSignIn } from './mcpSignIn';

type HttpConfig = Extract<McpServerConfig, { type: 'http' | 'sse' }>;

export interface HttpStart {
  /** Signs Keel in to servers that ask (absent: this host keeps no tokens). */
  oauth?: McpOAuthHost;
  /** Whether the person may be sent to sign in; where not, a server that needs it ends in McpSignInRequired. */
  signIn: SignInMode;
  /** Connects an MCP client over the transport. */
  attach(transport: Transport): Promise<Client>;
  /** A line for the server's log (what Keel did). */
  note(line: string): void;
  /** False once this start was abandoned (stopped, or started again). */
  current(): boolean;
  /** Stops the start's timeout while the person signs in; call the result when they are back. */
  hold(): () => void;
  /** The transport being tried, for the status list. */
  transport(kind: 'http' | 'sse'): void;
}

/** A server that has its own Authorization header is the person's to authenticate; Keel signs in to the others. */
export function accessMode(c: HttpConfig, oauth: McpOAuthHost | undefined): AccessMode {
  if (Object.keys(c.headers).some((h) => h.toLowerCase() === 'authorization')) return 'header';
  return oauth ? 'oauth' : 'none';
}

/**
 * Connects to a remote server: streamable HTTP, or the older SSE transport when that is all
 * it speaks. A server that answered 401/403, or whose sign-in started, is never tried over
 * SSE (its 404 would hide the cause): the sign-in is waited for and the connection made again.
 */
export async function openHttp(c: HttpConfig, o: HttpStart): Promise<{ client: Client; provider: McpOAuthProvider | undefined }> {
  const mode = accessMode(c, o.oauth);
  const provider = mode === 'oauth' && o.oauth ? await McpOAuthProvider.create(c, o.oauth, o.signIn) : undefined;
  const url = new URL(c.url);
  // Through the configured proxy, with its certificates (src/core/net).
  const options = { requestInit: { headers: c.headers }, fetch: provider ? provider.watch(netFetch) : netFetch, ...(provider ? { authProvider: provider } : {}) };
  const hold = () => {
    o.note('[keel] waiting for you to sign in in the browser');
    return o.hold();
  };
  const connect = (make: () => Transport) => withSignIn(() => o.attach(make()), provider, hold);
  /** The access problem `err` is (a sign-in to do, a refusal, a failed sign-in), if it is one. */
  const explain = (err: unknown): Error | undefined => {
    const problem = accessProblem(err, mode);
    if (problem) return problem;
    if (provider?.authStarted) return new McpSignInFailed(`signing in failed: ${errorMessage(err)}`);
    return undefined;
  };
  if (c.type === 'http') {
    try {
      o.note(`[keel] connecting to ${c.url} (streamable HTTP)`);
      o.transport('http');
      return { client: await connect(() => new StreamableHTTPClientTransport(url, options)), provider };
    } catch (err) {
      const problem = explain(err);
      if (problem) throw problem;
      if (!o.current()) throw err;
      o.note(`[keel] streamable HTTP failed (${errorMessage(err)}); trying the older SSE transport`);
    }
  }
  o.transport('sse');
  o.note(`[keel] connecting to ${c.url} (SSE)`);
  try {
    return { client: await connect(() => new SSEClientTransport(url, options)), provider };
  } catch (err) {
    throw explain(err) ?? err;
  }
}
