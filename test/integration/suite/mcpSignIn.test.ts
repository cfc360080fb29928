/// <reference types="mocha" />
// Signing in to an OAuth-protected MCP server in a real extension host: a workspace server
// from .vscode/mcp.json is approved, then shows "Sign in" (no browser, no registration) until
// the person clicks it in the chat's MCP list; the sign-in page goes to the browser (played by
// this test, which follows the redirects back to Keel's loopback listener), and the agent then
// uses the server's tool. The server and its authorization server: test/fixtures/mcp/oauthServer.ts.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { startOAuthServer } from '../../fixtures/mcp/oauthServer';
import type { OAuthServer } from '../../fixtures/mcp/oauthServer';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { activateKeel, keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';
import type { KeelTestApi } from '../../../src/vscode/testHooks';

keelHomeForRun();

/**
 * What the browser does with the sign-in page: follows its redirects. The redirect URI is
 * what asExternalUri made of Keel's loopback listener; here (code-server's VS Code server)
 * that is `<workbench>/proxy/<port>/callback`, which code-server itself forwards to
 * 127.0.0.1:<port>/callback. server-main alone does not serve /proxy/, so this browser
 * forwards it the same way.
 */
async function browse(url: string): Promise<Response> {
  let next = url;
  for (let hops = 0; hops < 5; hops++) {
    const answer = await fetch(next, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status >= 400 || !location) return answer;
    const target = new URL(location, next);
    const proxied = /^\/proxy\/(\d+)(\/.*)$/.exec(target.pathname);
    next = proxied ? `http://127.0.0.1:${proxied[1]}${proxied[2]}${target.search}` : target.href;
  }
  throw new Error(`too many redirects from ${url}`);
}

describe('signing in to an MCP server (OAuth)', () => {
  const chat = useConfiguredChat();
  const opened: string[] = [];
  const landed: number[] = [];
  let api: KeelTestApi;
  let oauth: OAuthServer;
  let configFile: string;

  before(async () => {
    api = await activateKeel();
    await api.testHooks.setMcpApprovalPrompt(async () => true);
    await api.testHooks.setSignInBrowser(async (url) => {
      opened.push(url);
      landed.push((await browse(url)).status);
    });
    oauth = await startOAuthServer();
    mkdirSync(join(workspaceFolder(), '.vscode'), { recursive: true });
    configFile = join(workspaceFolder(), '.vscode', 'mcp.json');
  });
  after(async () => {
    rmSync(configFile, { force: true });
    await oauth?.close();
  });

  const server = () => (chat.page.named('mcp.status').at(-1) as McpStatusView | undefined)?.servers.find((s) => s.name === 'guarded');

  it('shows Sign in and opens nothing until the person clicks it; then the agent uses the tool', async function () {
    this.timeout(180_000);
    writeFileSync(configFile, JSON.stringify({ servers: { guarded: { type: 'http', url: oauth.url } } }));
    await chat.page.waitFor(() => server()?.state === 'signin', 'the server to wait for a sign-in', 60_000);
    assert.match(server()!.text, /needs you to sign in/);
    assert.deepStrictEqual(opened, [], 'no browser before the click');
    assert.deepStrictEqual(oauth.registrations, [], 'nothing registered before the click');

    // What the list's "Sign in" button sends.
    await chat.page.bus.request('command.run', { command: 'keel.mcpSignIn', args: ['guarded'] });
    await chat.page.waitFor(() => server()?.state === 'ready', 'the server to be ready after signing in', 60_000);
    assert.strictEqual(opened.length, 1, 'one sign-in page');
    assert.deepStrictEqual(landed, [200], 'the browser ended on Keel\'s page');
    const asked = oauth.authorizations[0]!;
    assert.strictEqual(asked.challengeMethod, 'S256');
    // The listener, as the browser reaches it (asExternalUri), with Keel's path kept.
    assert.match(asked.redirectUri, /^http:\/\/127\.0\.0\.1:\d+(\/proxy\/\d+)?\/callback$/);

    chat.server.load({ turns: [reply.tool('mcp__guarded__whoami', {}), reply.text('done')] });
    await chat.page.sendAndSettle('who is signed in?');
    assert.match(lastToolResult(request(chat.server, 1)), /signed in/);

    // The token is the server's business and SecretStorage's: never in Keel's log.
    const token = oauth.bearers.filter(Boolean).at(-1)!.slice('Bearer '.length);
    assert.ok(token.startsWith('at-'));
    assert.ok(!api.testHooks.logLines().some((line) => line.includes(token)), 'the token is not logged');
  });
});
