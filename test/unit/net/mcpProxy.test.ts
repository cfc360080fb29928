import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/core/mcp/mcpManager';
import { configureNetwork, networkSettingsFromEnv } from '../../../src/core/net/index';
import { startEverythingHttp } from '../../fixtures/mcp/everythingServer.ts';
import { startConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import { startTlsFront, testCaFile } from '../../fixtures/proxy/tlsFront.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  configureNetwork(networkSettingsFromEnv({}));
  for (const close of closers.splice(0).reverse()) await close();
});

async function echoThrough(url: string): Promise<string> {
  const m = new McpManager({ workspaceRoot: process.cwd(), env: {}, log: () => undefined, trusted: true, backoffMs: [10, 10, 10] });
  closers.push(() => m.dispose());
  m.setServers([{ name: 'web', origin: 'user', type: 'http', url, headers: {} }]);
  const echo = (await m.tools()).find((t) => t.name === 'mcp__web__echo');
  expect(echo, JSON.stringify(m.status())).toBeDefined();
  const result = await echo!.execute({ message: 'via proxy' }, { signal: new AbortController().signal, toolCallId: 'x' } as never);
  return JSON.stringify(result.output);
}

describe('MCP over HTTP behind a proxy', () => {
  it('a streamable HTTP server on https is reached through a CONNECT tunnel', async () => {
    const server = await startEverythingHttp('streamableHttp');
    closers.push(() => server.close());
    const front = await startTlsFront(server.port);
    closers.push(() => front.close());
    const proxy = await startConnectProxy();
    closers.push(() => proxy.close());
    configureNetwork({ httpsProxy: proxy.url, noProxy: [], strictSSL: true, caFiles: [testCaFile()], systemCertificates: false, source: 'environment' });

    expect(await echoThrough(`${front.origin}/mcp`)).toContain('Echo: via proxy');
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(proxy.log.every((entry) => entry.method === 'CONNECT' && entry.target === `127.0.0.1:${front.port}`)).toBe(true);
  });

  it('an SSE server on http goes to the proxy in absolute form, the event stream included', async () => {
    const server = await startEverythingHttp('sse');
    closers.push(() => server.close());
    const proxy = await startConnectProxy();
    closers.push(() => proxy.close());
    configureNetwork({ httpProxy: proxy.url, noProxy: [], strictSSL: true, caFiles: [], systemCertificates: false, source: 'environment' });

    const base = `http://127.0.0.1:${server.port}`;
    expect(await echoThrough(`${base}/sse`)).toContain('Echo: via proxy');
    const seen = proxy.log.map((entry) => `${entry.method} ${entry.target.replace(/\?.*$/, '')}`);
    expect(seen).toContain(`GET ${base}/sse`);
    expect(seen).toContain(`POST ${base}/message`);
  });
});
