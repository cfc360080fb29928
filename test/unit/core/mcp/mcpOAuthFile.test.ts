import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpOAuthFile } from '../../../../src/core/mcp/mcpOAuthFile';

const tokens = { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1', expires_in: 3600 };
const client = { client_id: 'c-1', redirect_uris: ['http://127.0.0.1:33418/callback'] };

describe('McpOAuthFile', () => {
  it('keeps tokens per server URL in a file only the owner can read', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'keel-oauth-')), 'nested', 'mcp-oauth.json');
    const store = new McpOAuthFile(path);
    await store.write('https://a.example/mcp', { client, tokens });
    await store.write('https://b.example/mcp', { tokens: { ...tokens, access_token: 'at-b' } });
    const again = new McpOAuthFile(path);
    expect((await again.read('https://a.example/mcp')).tokens?.access_token).toBe('at-1');
    expect((await again.read('https://a.example/mcp')).client?.client_id).toBe('c-1');
    expect((await again.read('https://b.example/mcp')).tokens?.access_token).toBe('at-b');
    expect(await again.read('https://c.example/mcp')).toEqual({});
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('forgets a server when its record is emptied, keeping the others', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'keel-oauth-')), 'mcp-oauth.json');
    const store = new McpOAuthFile(path);
    await store.write('https://a.example/mcp', { tokens });
    await store.write('https://b.example/mcp', { tokens });
    await store.write('https://a.example/mcp', {});
    const all = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(all)).toEqual(['https://b.example/mcp']);
  });

  it('refuses a damaged file with a message naming it instead of overwriting it', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'keel-oauth-')), 'mcp-oauth.json');
    await writeFile(path, '{not json');
    const store = new McpOAuthFile(path);
    await expect(store.read('https://a.example/mcp')).rejects.toThrow(path);
    await expect(store.write('https://a.example/mcp', { tokens })).rejects.toThrow('not valid JSON');
    expect(await readFile(path, 'utf8')).toBe('{not json');
  });
});
