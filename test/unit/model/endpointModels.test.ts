import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import { fetchEndpointModels } from '../../../src/core/model/endpointModels';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { turns: [], models: ['zeta-coder', 'alpha-7b', 'alpha-7b'], apiKey: 'sk-list' } });
});
afterAll(() => server.close());

describe('the endpoint model list', () => {
  it('lists what GET /models answers, sorted and once each, sending the key', async () => {
    const listed = await fetchEndpointModels({ provider: 'custom', baseURL: `${server.baseURL}/`, apiKey: 'sk-list' });
    expect(listed).toEqual({ ok: true, ids: ['alpha-7b', 'zeta-coder'] });
  });

  it('gives a reason instead of throwing for a wrong key, a missing route and a closed port', async () => {
    const denied = await fetchEndpointModels({ provider: 'custom', baseURL: server.baseURL, apiKey: 'wrong' });
    expect(denied).toEqual({ ok: false, reason: `${server.baseURL}/models answered 401` });
    const noRoute = await fetchEndpointModels({ provider: 'custom', baseURL: server.url, apiKey: 'sk-list' });
    expect(noRoute.ok === false && noRoute.reason).toContain('answered 404 (the endpoint has no model list)');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await fetchEndpointModels({ provider: 'custom', baseURL: `http://127.0.0.1:${port}/v1` });
    expect(gone.ok).toBe(false);
  });

  it('refuses an answer that is not a model list', async () => {
    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: ['a'] }));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const { port } = odd.address() as AddressInfo;
    try {
      const listed = await fetchEndpointModels({ provider: 'custom', baseURL: `http://127.0.0.1:${port}/v1` });
      expect(listed.ok === false && listed.reason).toContain('without a "data" list');
    } finally {
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it('asks an endpoint once per registry, and again after a failure', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const reg = new ModelRegistry({
      config: { ...defaultConfig, model: 'custom/alpha-7b', providers: { custom: { baseURL: server.baseURL } } },
      env: {},
      apiKeys: { custom: { key: 'sk-list', origin: new URL(server.baseURL).origin } },
    });
    await reg.endpointModels('custom', counting);
    await reg.endpointModels('custom', counting);
    expect(calls).toBe(1);
    const keyless = new ModelRegistry({ config: { ...defaultConfig, providers: { custom: { baseURL: server.baseURL } } }, env: {} });
    expect((await keyless.endpointModels('custom', counting))?.ok).toBe(false);
    await keyless.endpointModels('custom', counting);
    expect(calls).toBe(3);
  });
});
