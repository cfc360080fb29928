// The AI SDK's providers (here Anthropic's, loaded on use) reach their endpoint through the
// configured proxy too: their fetch is Keel's.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { configureNetwork, networkSettingsFromEnv } from '../../../src/core/net/index';
import { startConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import type { ConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import { startTlsFront, testCaFile } from '../../fixtures/proxy/tlsFront.ts';
import type { TlsFront } from '../../fixtures/proxy/tlsFront.ts';
import { registrySay } from '../model/registrySay';

const { server: scripted, say } = registrySay('hi through the proxy');
let front: TlsFront;
let proxy: ConnectProxy;

beforeAll(async () => {
  front = await startTlsFront(Number(new URL(scripted().baseURL).port));
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await proxy.close();
  await front.close();
});
afterEach(() => configureNetwork(networkSettingsFromEnv({})));

describe('an AI SDK provider behind a proxy', () => {
  it('Anthropic Messages over https goes through a CONNECT tunnel', async () => {
    configureNetwork({ httpsProxy: proxy.url, noProxy: [], strictSSL: true, caFiles: [testCaFile()], systemCertificates: false, source: 'environment' });
    const config = { ...defaultConfig, model: 'anthropic/claude', providers: { anthropic: { baseURL: `${front.origin}/v1` } } };
    const reg = new ModelRegistry({ config, env: { ANTHROPIC_API_KEY: 'sk-ant' } });
    expect(await say(reg)).toBe('hi through the proxy');
    expect(scripted().requests[0].path).toBe('/v1/messages');
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${front.port}` }]);
  });
});
