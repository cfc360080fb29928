// Who may say how Keel signs in to an MCP server: the person's own config only.
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../../../src/core/mcp/mcpConfig';
import { serverFingerprint } from '../../../../src/core/mcp/mcpEnv';
import { oauthKey } from '../../../../src/core/mcp/mcpOAuthProvider';

const vars = { workspaceFolder: '/ws/app', env: { SECRET: 'from-env' } };
const user = (entry: unknown) => parseMcpConfig({ servers: { remote: entry } }, 'user', vars, 'keel.mcpServers (user settings)');
const workspace = (entry: unknown) => parseMcpConfig({ servers: { remote: entry } }, 'workspace', vars, '.vscode/mcp.json');

describe('an HTTP server\'s "oauth" entry', () => {
  it('gives a pre-registered client, scopes and a metadata document URL from the person\'s config, with their variables', () => {
    const { servers, problems } = user({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      oauth: { clientId: 'keel-desktop', clientSecret: '${env:SECRET}', scopes: ['read', 'write'], clientMetadataUrl: 'https://example.com/keel/client.json' },
    });
    expect(problems).toEqual([]);
    expect(servers[0]).toMatchObject({ oauth: { clientId: 'keel-desktop', clientSecret: 'from-env', scopes: ['read', 'write'], clientMetadataUrl: 'https://example.com/keel/client.json' } });
  });

  it('is refused from a workspace\'s config, which may not choose a client or route a secret', () => {
    const { servers, problems } = workspace({ type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'theirs' } });
    expect(servers).toEqual([]);
    expect(problems[0]!.message).toContain('"oauth" is read only from your own config');
  });

  it('names each mistake', () => {
    const problem = (oauth: unknown) => user({ type: 'http', url: 'https://mcp.example.com/mcp', oauth }).problems[0]?.message;
    expect(problem({ clientSecret: 'x' })).toContain('"oauth.clientSecret" needs "oauth.clientId"');
    expect(problem({ clientId: 'x', redirect: 'y' })).toContain('unknown field "oauth.redirect"');
    expect(problem({ clientMetadataUrl: 'http://example.com/c.json' })).toContain('"oauth.clientMetadataUrl" must be an https URL with a path');
    expect(problem({ clientMetadataUrl: 'https://example.com/' })).toContain('must be an https URL with a path');
    expect(problem({ scopes: 'read' })).toContain('"oauth.scopes" must be an array of strings');
    expect(problem('yes')).toContain('"oauth" must be an object');
  });

  it('restarts the server when it changes, and leaves the fingerprint of servers without one as it was', () => {
    const plain = user({ type: 'http', url: 'https://mcp.example.com/mcp' }).servers[0]!;
    const withClient = user({ type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'a' } }).servers[0]!;
    expect(serverFingerprint(withClient)).not.toBe(serverFingerprint(plain));
    expect(serverFingerprint(plain)).toBe(serverFingerprint({ ...plain }));
  });

  it('keys stored sign-ins by where the server was configured, its name and its URL', () => {
    const base = { name: 'remote', origin: 'user' as const, type: 'http' as const, url: 'https://a.example/mcp', headers: {} };
    const keys = new Set([oauthKey(base), oauthKey({ ...base, origin: 'workspace' }), oauthKey({ ...base, name: 'other' }), oauthKey({ ...base, url: 'https://b.example/mcp' })]);
    expect(keys.size).toBe(4);
  });
});
