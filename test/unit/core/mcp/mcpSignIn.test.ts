import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { McpServerStatus } from '../../../../src/core/mcp/mcpTypes';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** An MCP endpoint that answers every request with `status` and a Bearer challenge; records what it was asked. */
async function guarded(status: number): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(status, { 'WWW-Authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' });
    res.end('sign in first');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, requests };
}

function settled(m: McpManager): Promise<McpServerStatus> {
  return new Promise((resolve) => {
    const check = () => {
      const s = m.status().find((x) => x.name === 'remote');
      if (s && s.state === 'failed') {
        off();
        resolve(s);
      }
    };
    const off = m.onDidChange(check);
    check();
  });
}

describe('an HTTP MCP server that wants sign-in', () => {
  for (const status of [401, 403]) {
    it(`answering ${status} is reported as needing sign-in, not tried over SSE, not restarted`, async () => {
      const endpoint = await guarded(status);
      const m = new McpManager({ workspaceRoot: process.cwd(), env: {}, log: () => undefined, trusted: true, backoffMs: [10, 10, 10] });
      closers.push(() => m.dispose());
      m.setServers([{ name: 'remote', origin: 'user', type: 'http', url: endpoint.url, headers: {} }]);
      const s = await settled(m);
      expect(s.reason).toContain(`needs sign-in (HTTP ${status})`);
      expect(s.reason).not.toMatch(/SSE|restarting/);
      expect(await m.tools()).toEqual([]);
      // One initialize POST and nothing else: no SSE GET, no restarts.
      expect(endpoint.requests).toEqual(['POST /mcp']);
    });
  }
});
