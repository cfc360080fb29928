// Signing in to an HTTP MCP server, end to end over real HTTP: Keel's provider and loopback
// listener with the SDK's auth(), against a local OAuth-protected server (test/fixtures/mcp).
// The test plays the person's browser: it opens the URL Keel shows and follows the redirects.
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../../src/core/mcp/mcpConfig';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import { McpOAuthFile } from '../../../../src/core/mcp/mcpOAuthFile';
import type { McpOAuthHost } from '../../../../src/core/mcp/mcpOAuthProvider';
import { oauthKey } from '../../../../src/core/mcp/mcpOAuthProvider';
import type { McpServerState, McpServerStatus } from '../../../../src/core/mcp/mcpTypes';
import type { ToolContext } from '../../../../src/core/tools/tool';
import { startOAuthServer } from '../../../fixtures/mcp/oauthServer';
import type { OAuthServer } from '../../../fixtures/mcp/oauthServer';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function server(opts: Parameters<typeof startOAuthServer>[0] = {}): Promise<OAuthServer> {
  const s = await startOAuthServer(opts);
  closers.push(() => s.close());
  return s;
}

/** A host whose "browser" opens every page it is shown (unless `browse` is false) and follows the redirects. */
async function host(browse = true, timeoutMs?: number): Promise<McpOAuthHost & { shown: URL[]; file: string; landed: Promise<Response>[] }> {
  const file = join(await mkdtemp(join(tmpdir(), 'keel-oauth-')), 'mcp-oauth.json');
  const shown: URL[] = [];
  const landed: Promise<Response>[] = [];
  return {
    file,
    shown,
    landed,
    store: new McpOAuthFile(file),
    ...(timeoutMs ? { timeoutMs } : {}),
    present: async (_server, url) => {
      shown.push(url);
      if (browse) landed.push(fetch(url, { redirect: 'follow' }));
    },
  };
}

function manager(oauth: McpOAuthHost, signInWhenAsked: boolean): McpManager {
  const m = new McpManager({ workspaceRoot: process.cwd(), env: {}, log: () => undefined, trusted: true, backoffMs: [10, 10], oauth, signInWhenAsked, approve: async () => true });
  closers.push(() => m.dispose());
  return m;
}

const remote = (url: string, origin: McpServerConfig['origin'] = 'user'): McpServerConfig => ({ name: 'remote', origin, type: 'http', url, headers: {} });

/** A guarded server, a host and a manager with that server configured (`origin` where it was configured). */
async function setup(signInWhenAsked: boolean, o: { server?: Parameters<typeof startOAuthServer>[0]; browse?: boolean; timeoutMs?: number; origin?: McpServerConfig['origin'] } = {}) {
  const s = await server(o.server);
  const h = await host(o.browse ?? true, o.timeoutMs);
  const m = manager(h, signInWhenAsked);
  m.setServers([remote(s.url, o.origin)]);
  return { s, h, m };
}

function state(m: McpManager, wanted: McpServerState): Promise<McpServerStatus> {
  return new Promise((resolve) => {
    const check = () => {
      const s = m.status().find((x) => x.name === 'remote');
      if (s?.state === wanted) {
        off();
        resolve(s);
      }
    };
    const off = m.onDidChange(check);
    check();
  });
}

async function callWhoami(m: McpManager): Promise<unknown> {
  const tool = (await m.tools()).find((t) => t.name === 'mcp__remote__whoami');
  if (!tool) throw new Error(`no whoami tool: ${JSON.stringify(m.status())}`);
  return tool.execute({}, { signal: new AbortController().signal, toolCallId: 't1' } as ToolContext);
}

describe('signing in to an HTTP MCP server', () => {
  it('shows the sign-in page, takes the code at the loopback redirect and keeps the tokens in a 0600 file', async () => {
    const { s, h, m } = await setup(true);
    const ready = await state(m, 'ready');
    expect(ready.tools).toBe(1);
    expect(h.shown).toHaveLength(1);
    // What the authorization server was asked: PKCE S256, the loopback redirect, the server as resource, a state.
    const [asked] = s.authorizations;
    expect(asked?.challengeMethod).toBe('S256');
    expect(asked?.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(asked?.resource).toBe(s.url);
    expect(asked?.state).toMatch(/^[\w-]{20,}$/);
    expect(s.registrations).toHaveLength(1);
    expect(s.registrations[0]).toMatchObject({ client_name: 'Keel', grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' });
    // The browser landed on Keel's page, which says so.
    const page = await h.landed[0]!;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in to &#34;remote&#34;');
    expect(JSON.stringify(await callWhoami(m))).toContain('signed in');
    // Kept per server: under its origin, name and URL, readable by the owner only.
    const stored = JSON.parse(await readFile(h.file, 'utf8')) as Record<string, { tokens?: { access_token: string } }>;
    expect(Object.keys(stored)).toEqual([oauthKey({ name: 'remote', origin: 'user', type: 'http', url: s.url, headers: {} })]);
    expect(stored[Object.keys(stored)[0]!]?.tokens?.access_token).toMatch(/^at-/);
    if (process.platform !== 'win32') expect((await stat(h.file)).mode & 0o777).toBe(0o600);
    // The redirect listener is gone once the sign-in ended.
    await expect(fetch(asked!.redirectUri)).rejects.toThrow();
  });

  it('uses the stored tokens next time, and refreshes an expired one without the person', async () => {
    const s = await server();
    const h = await host();
    const first = manager(h, true);
    first.setServers([remote(s.url)]);
    await state(first, 'ready');
    await first.dispose();
    const second = manager({ ...h, present: async (_s, url) => void h.shown.push(url) }, true);
    second.setServers([remote(s.url)]);
    await state(second, 'ready');
    expect(h.shown).toHaveLength(1);
    expect(s.registrations).toHaveLength(1);
    s.expireAccessTokens();
    expect(JSON.stringify(await callWhoami(second))).toContain('signed in');
    expect(s.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(h.shown).toHaveLength(1);
  });

  it('where sign-in is only on request, shows "signin" without registering or opening anything, until signIn(name)', async () => {
    const { s, h, m } = await setup(false);
    const waiting = await state(m, 'signin');
    expect(waiting.reason).toBe('sign-in needed');
    expect(m.signsIn('remote')).toBe(true);
    expect(s.registrations).toEqual([]);
    expect(h.shown).toEqual([]);
    await m.signIn('remote');
    await state(m, 'ready');
    expect(h.shown).toHaveLength(1);
  });

  it('never sends the person to sign in to a workspace server on its own, even where the host signs in when asked', async () => {
    const { s, h, m } = await setup(true, { origin: 'workspace' });
    await state(m, 'signin');
    expect(h.shown).toEqual([]);
    expect(s.authorizations).toEqual([]);
  });

  it('stops waiting for a browser that never comes back, with an error that says so, and does not restart', async () => {
    const { h, m } = await setup(true, { browse: false, timeoutMs: 300 });
    const failed = await state(m, 'failed');
    expect(failed.reason).toMatch(/could not start: signing in to "remote" failed: no sign-in arrived within 1 s; sign in again when you are ready$/);
    expect(failed.reason).not.toMatch(/restarting|SSE/);
    expect(h.shown).toHaveLength(1);
  });

  it('forgets the tokens on sign-out, so the server needs a sign-in again', async () => {
    const { h, m } = await setup(false);
    await state(m, 'signin');
    await m.signIn('remote');
    await state(m, 'ready');
    await m.signOut('remote');
    await state(m, 'signin');
    expect(JSON.parse(await readFile(h.file, 'utf8'))).toEqual({});
  });

  it('steps up on 403 insufficient_scope where the host signs in when asked: the call waits for the wider sign-in', async () => {
    const { s, h, m } = await setup(true, { server: { callScope: 'write' } });
    await state(m, 'ready');
    expect(JSON.stringify(await callWhoami(m))).toContain('signed in');
    expect(h.shown).toHaveLength(2);
    expect(s.authorizations.map((a) => a.scope)).toEqual([null, 'write']);
  });

  it('after a "Sign in" click, does not open the browser again for a step-up: the call says so and the list shows Sign in', async () => {
    const { h, m } = await setup(false, { server: { callScope: 'write' } });
    await state(m, 'signin');
    await m.signIn('remote');
    await state(m, 'ready');
    const result = (await callWhoami(m)) as { output: string; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.output).toContain('"remote" needs you to sign in');
    const waiting = await state(m, 'signin');
    expect(waiting.reason).toBe('more access needed');
    expect(h.shown).toHaveLength(1);
  });

  it('leaves a server with its own Authorization header to that header: a 401 names it, and no sign-in starts', async () => {
    const s = await server();
    const h = await host();
    const m = manager(h, true);
    m.setServers([{ ...remote(s.url), headers: { Authorization: 'Bearer wrong' } } as McpServerConfig]);
    const failed = await state(m, 'failed');
    expect(failed.reason).toContain('refused the Authorization header of its config (HTTP 401)');
    expect(m.signsIn('remote')).toBe(false);
    expect(s.registrations).toEqual([]);
    expect(h.shown).toEqual([]);
  });
});
