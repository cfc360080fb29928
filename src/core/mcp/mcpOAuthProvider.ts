import { createHash, randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from '../errors';
import type { McpServerConfig } from './mcpConfig';
import type { McpOAuthRecord, McpOAuthStore } from './mcpOAuthFile';
import { callbackPath, freeLoopbackPort, signInTimeoutMs, waitForRedirect } from './mcpOAuthLoopback';
import { McpSignInFailed, McpSignInRequired } from './mcpSignIn';

type HttpConfig = Extract<McpServerConfig, { type: 'http' | 'sse' }>;

/**
 * When the person may be sent to the browser: `always` (the CLI, whenever a server asks),
 * `once` (they clicked "Sign in": this one sign-in, not a later step-up), `never`.
 */
export type SignInMode = 'always' | 'once' | 'never';

/** What a host gives Keel to sign in to MCP servers. */
export interface McpOAuthHost {
  store: McpOAuthStore;
  /** Shows the person the authorization page: the CLI prints the URL, VS Code opens the browser. */
  present(server: string, url: URL): Promise<void>;
  /** The redirect URI as the browser reaches it (VS Code's asExternalUri); default: the loopback URI. */
  externalRedirect?(loopback: string): Promise<string>;
  /** How long to wait for the browser to come back; default 5 minutes. */
  timeoutMs?: number;
}

/** The store key: a token belongs to one server, as configured in one place, at one URL. */
export function oauthKey(c: HttpConfig): string {
  return `${c.origin}:${c.name}:${c.url}`;
}

/** One sign-in in progress (several requests may need it at once; one browser page serves them). */
interface Flow {
  state: string;
  /** Every verifier the SDK made for this flow; the one matching the presented URL is used. */
  verifiers: string[];
  verifier?: string;
  /** Settles (never rejects) when the browser came back and the code was exchanged, or failed. */
  done?: Promise<void>;
  settled?: boolean;
  error?: McpSignInFailed;
  /** Stops waiting for the browser (the page could not be shown). */
  abort: AbortController;
}

/**
 * Keel's side of the SDK's OAuth client (`auth()` does discovery, registration, PKCE, the
 * token requests and refresh): client metadata, the loopback redirect, and where the
 * verifier, client and tokens live. Where the person may not be sent to sign in (`never`, or
 * `once` after it was used), a server that needs it ends in McpSignInRequired before anything
 * is registered or opened; stored tokens are still refreshed.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private record: McpOAuthRecord;
  private discovery: OAuthDiscoveryState | undefined;
  private flow: Flow | undefined;
  /** The SDK began an authorization (the server asked for it): a failure now is a sign-in failure. */
  authStarted = false;
  /** The server wants more scopes than the tokens carry: refreshing cannot give them, so auth() must not try. */
  private steppingUp = false;
  /** How requests reach the authorization server (the configured proxy). */
  private fetchFn: FetchLike | undefined;

  private constructor(
    private readonly config: HttpConfig,
    private readonly host: McpOAuthHost,
    private interactive: boolean,
    private readonly once: boolean,
    private readonly port: number,
    readonly redirectUrl: string,
    record: McpOAuthRecord,
  ) {
    this.record = record;
  }

  static async create(config: HttpConfig, host: McpOAuthHost, mode: SignInMode): Promise<McpOAuthProvider> {
    let record = await host.store.read(oauthKey(config));
    if (mode === 'never') {
      const registered = record.client && 'redirect_uris' in record.client ? record.client.redirect_uris[0] : undefined;
      return new McpOAuthProvider(config, host, false, false, 0, registered ?? `http://127.0.0.1${callbackPath}`, record);
    }
    // The port the stored client was registered with, while it is free; else a new one (and a new registration).
    const registeredPort = loopbackPort(record.client);
    const port = await freeLoopbackPort(registeredPort);
    // Registered for a port that is taken now: that registration is no use, register again.
    if (registeredPort !== undefined && port !== registeredPort) record = record.tokens ? { tokens: record.tokens } : {};
    const loopback = `http://127.0.0.1:${port}${callbackPath}`;
    const redirectUrl = host.externalRedirect ? await host.externalRedirect(loopback) : loopback;
    return new McpOAuthProvider(config, host, true, mode === 'once', port, redirectUrl, record);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.config.oauth?.scopes;
    return {
      client_name: 'Keel',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.oauth?.clientMetadataUrl;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const configured = this.config.oauth?.clientId;
    const stored = this.record.client;
    if (configured) {
      const secret = this.config.oauth?.clientSecret;
      const issuer = stored?.client_id === configured ? stored.issuer : undefined;
      return { client_id: configured, ...(secret ? { client_secret: secret } : {}), ...(issuer ? { issuer } : {}) };
    }
    // Registering is part of signing in: without the person, it waits for them.
    if (!stored && !this.interactive) throw this.signInRequired();
    return stored;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.save({ ...this.record, client });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.record.tokens;
    if (!tokens || !this.steppingUp) return tokens;
    // Still good for the Authorization header; without the refresh token auth() asks for the wider scope.
    const { refresh_token: _refresh, ...rest } = tokens;
    return rest;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.steppingUp = false;
    await this.save({ ...this.record, tokens });
  }

  /**
   * The transport's fetch, watched for `403 insufficient_scope` (a step-up is a new
   * authorization, never a refresh); the code exchange goes through it too.
   */
  watch(fetchFn: FetchLike): FetchLike {
    this.fetchFn = fetchFn;
    return async (url, init) => {
      const answer = await fetchFn(url, init);
      if (answer.status === 403 && /error="?insufficient_scope/.test(answer.headers.get('www-authenticate') ?? '')) this.steppingUp = true;
      return answer;
    };
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    // The first thing `auth()` asks: the server wanted a token.
    this.authStarted = true;
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  state(): string {
    if (!this.interactive) throw this.signInRequired();
    if (!this.flow || this.flow.settled) this.flow = { state: randomBytes(24).toString('base64url'), verifiers: [], abort: new AbortController() };
    return this.flow.state;
  }

  saveCodeVerifier(verifier: string): void {
    this.flow?.verifiers.push(verifier);
  }

  codeVerifier(): string {
    const verifier = this.flow?.verifier;
    if (!verifier) throw new Error('no sign-in is in progress for this server');
    return verifier;
  }

  /** Starts listening for the redirect, then shows the person the page (once per flow). */
  async redirectToAuthorization(url: URL): Promise<void> {
    const flow = this.flow;
    if (!flow) throw new Error('the authorization URL came before its state');
    if (flow.done) return;
    const challenge = url.searchParams.get('code_challenge');
    flow.verifier = flow.verifiers.find((v) => s256(v) === challenge);
    if (!flow.verifier) throw new Error('the authorization URL does not carry the challenge of a verifier Keel made');
    const { code } = await waitForRedirect({
      port: this.port,
      state: flow.state,
      timeoutMs: this.host.timeoutMs ?? signInTimeoutMs,
      server: this.config.name,
      signal: flow.abort.signal,
    });
    flow.done = this.finish(flow, code);
    try {
      await this.host.present(this.config.name, url);
    } catch (err) {
      flow.error = new McpSignInFailed(`could not show the sign-in page for "${this.config.name}": ${errorMessage(err)}`);
      flow.abort.abort();
    }
  }

  /** The server is up: where the person's click allowed one sign-in, a later one (a step-up) asks them again. */
  started(): void {
    if (this.once) this.interactive = false;
  }

  /**
   * Waits for a sign-in this provider started (the request that triggered it failed with the
   * SDK's UnauthorizedError) and rethrows how it failed; false when none was started.
   */
  async signedIn(): Promise<boolean> {
    const flow = this.flow;
    if (!flow?.done) return false;
    await flow.done;
    if (flow.error) throw flow.error;
    return true;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'all') await this.save({});
    else if (scope === 'client') await this.save(this.record.tokens ? { tokens: this.record.tokens } : {});
    else if (scope === 'tokens') await this.save(this.record.client ? { client: this.record.client } : {});
  }

  private async finish(flow: Flow, code: Promise<string>): Promise<void> {
    try {
      const authorizationCode = await code;
      const result = await auth(this, { serverUrl: this.config.url, authorizationCode, ...(this.fetchFn ? { fetchFn: this.fetchFn } : {}) });
      if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
    } catch (err) {
      flow.error ??= new McpSignInFailed(`signing in to "${this.config.name}" failed: ${errorMessage(err)}`);
    } finally {
      flow.settled = true;
    }
  }

  private async save(record: McpOAuthRecord): Promise<void> {
    this.record = record;
    await this.host.store.write(oauthKey(this.config), record);
  }

  private signInRequired(): McpSignInRequired {
    return new McpSignInRequired(this.config.name);
  }
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The port of a stored client's loopback redirect URI, if it has one. */
function loopbackPort(client: OAuthClientInformationMixed | undefined): number | undefined {
  const uri = client && 'redirect_uris' in client ? client.redirect_uris[0] : undefined;
  if (!uri) return undefined;
  const url = new URL(uri);
  return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : undefined;
}
