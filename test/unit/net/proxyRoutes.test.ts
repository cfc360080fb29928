import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postStream } from '../../../src/core/model/wire/wireHttp';
import { configureNetwork, netFetch } from '../../../src/core/net/index';
import { fetchTool } from '../../../src/core/tools/fetchTool';
import { createToolEnv, textOf } from '../tools/toolTestKit';
import type { NetworkSettings } from '../../../src/core/net/index';
import { startConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import type { ConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import { startTlsFront, testCaFile } from '../../fixtures/proxy/tlsFront.ts';
import type { TlsFront } from '../../fixtures/proxy/tlsFront.ts';

let site: Server;
let plain: string;
let front: TlsFront;
let proxy: ConnectProxy;

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/hello' }).end();
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' });
      res.end(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  plain = `http://127.0.0.1:${port}`;
  front = await startTlsFront(port);
});
afterAll(async () => {
  await front.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});
afterEach(async () => {
  configureNetwork(settings({}));
  await proxy?.close();
});

function settings(over: Partial<NetworkSettings>): NetworkSettings {
  return { noProxy: [], strictSSL: true, caFiles: [testCaFile()], systemCertificates: false, source: 'environment', ...over };
}

describe('requests through a proxy', () => {
  it('an https URL goes through a CONNECT tunnel, and TLS inside it checks the server against the extra CA', async () => {
    proxy = await startConnectProxy();
    configureNetwork(settings({ httpsProxy: proxy.url }));
    const res = await netFetch(`${front.origin}/hello`, { method: 'POST', body: 'ping' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('POST /hello ping');
    expect(res.url).toBe(`${front.origin}/hello`);
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${front.port}` }]);
  });

  it('an http URL is sent to the proxy whole (absolute form), with the Host of the target', async () => {
    proxy = await startConnectProxy();
    configureNetwork(settings({ httpProxy: proxy.url }));
    const res = await netFetch(`${plain}/a?b=1`);
    expect(await res.text()).toBe('GET /a?b=1');
    expect(res.headers.get('x-seen-host')).toBe(new URL(plain).host);
    expect(proxy.log).toEqual([{ method: 'GET', target: `${plain}/a?b=1` }]);
  });

  it('follows a redirect through the proxy as fetch does', async () => {
    proxy = await startConnectProxy();
    configureNetwork(settings({ httpProxy: proxy.url }));
    const res = await netFetch(`${plain}/moved`);
    expect(await res.text()).toBe('GET /hello');
    expect(res.redirected).toBe(true);
    expect(proxy.log.map((r) => r.target)).toEqual([`${plain}/moved`, `${plain}/hello`]);
  });

  it('NO_PROXY hosts are reached directly', async () => {
    proxy = await startConnectProxy();
    configureNetwork(settings({ httpsProxy: proxy.url, httpProxy: proxy.url, noProxy: ['127.0.0.1'] }));
    expect(await (await netFetch(`${front.origin}/x`)).text()).toBe('GET /x');
    expect(await (await netFetch(`${plain}/y`)).text()).toBe('GET /y');
    expect(proxy.log).toEqual([]);
  });

  it('credentials in the proxy URL become Proxy-Authorization; without them the 407 says what to do', async () => {
    proxy = await startConnectProxy({ credentials: 'ann:s3cret' });
    configureNetwork(settings({ httpsProxy: `http://ann:s3cret@127.0.0.1:${proxy.port}` }));
    expect((await netFetch(`${front.origin}/in`)).status).toBe(200);
    expect(proxy.log[0].authorization).toBe(`Basic ${Buffer.from('ann:s3cret').toString('base64')}`);

    // A header set on its own (VS Code's http.proxyAuthorization) serves a URL without credentials, for http targets too.
    const header = `Basic ${Buffer.from('ann:s3cret').toString('base64')}`;
    configureNetwork(settings({ httpsProxy: proxy.url, httpProxy: proxy.url, proxyAuthorization: header }));
    expect((await netFetch(`${front.origin}/in`)).status).toBe(200);
    expect(await (await netFetch(`${plain}/in`)).text()).toBe('GET /in');
    expect(proxy.log.slice(1).map((r) => r.authorization)).toEqual([header, header]);

    configureNetwork(settings({ httpsProxy: proxy.url }));
    const err = await netFetch(`${front.origin}/in`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(((err as TypeError).cause as Error).message).toBe(
      `Proxy ${proxy.url} refused to open a tunnel to 127.0.0.1:${front.port}: 407 Proxy Authentication Required; ` +
        'the proxy wants credentials: put them in the proxy URL (http://user:password@host:port)',
    );
  });
});

describe('failures that name themselves', () => {
  it('a proxy that is not running: "Proxy … refused the connection"', async () => {
    proxy = await startConnectProxy();
    const dead = proxy.url;
    await proxy.close();
    for (const target of [`${front.origin}/x`, `${plain}/x`]) {
      configureNetwork(settings({ httpsProxy: dead, httpProxy: dead }));
      const err = await netFetch(target).catch((e: unknown) => e);
      expect(((err as TypeError).cause as Error).message, target).toBe(
        `Proxy ${dead} refused the connection (on the way to ${new URL(target).host}); check ${target.startsWith('https') ? 'HTTPS_PROXY' : 'HTTP_PROXY'}`,
      );
    }
  });

  it('a certificate from an unknown CA: "TLS: certificate … not trusted", pointing at NODE_EXTRA_CA_CERTS, direct and through a proxy', async () => {
    configureNetwork(settings({ caFiles: [] }));
    const direct = await netFetch(`${front.origin}/x`).catch((e: unknown) => e);
    expect(((direct as TypeError).cause as Error).message).toMatch(
      new RegExp(`^TLS: certificate of 127\\.0\\.0\\.1:${front.port} not trusted \\(\\w+\\); set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signs it$`),
    );
    proxy = await startConnectProxy();
    configureNetwork(settings({ caFiles: [], httpsProxy: proxy.url }));
    const tunnelled = await netFetch(`${front.origin}/x`).catch((e: unknown) => e);
    expect(((tunnelled as TypeError).cause as Error).message).toContain(`not trusted (through proxy ${proxy.url}, which may re-sign traffic)`);
  });

  it("the system's certificates (http.systemCertificates) add to the extra CA, and do not stand in for it", async () => {
    configureNetwork(settings({ systemCertificates: true }));
    expect(await (await netFetch(`${front.origin}/sys`)).text()).toBe('GET /sys');
    configureNetwork(settings({ caFiles: [], systemCertificates: true }));
    const err = await netFetch(`${front.origin}/sys`).catch((e: unknown) => e);
    expect(((err as TypeError).cause as Error).message).toMatch(/^TLS: certificate of 127\.0\.0\.1:\d+ not trusted/);
  });

  it('an extra CA file that cannot be read is named', async () => {
    configureNetwork(settings({ caFiles: ['/nonexistent/corp-ca.pem'] }));
    const err = await netFetch(`${front.origin}/x`).catch((e: unknown) => e);
    expect(((err as TypeError).cause as Error).message).toMatch(/^Cannot read the CA certificates in \/nonexistent\/corp-ca\.pem \(NODE_EXTRA_CA_CERTS\): ENOENT/);
  });

  it('with strict SSL off (http.proxyStrictSSL: false) the same certificate is accepted', async () => {
    configureNetwork(settings({ caFiles: [], strictSSL: false }));
    expect(await (await netFetch(`${front.origin}/ok`)).text()).toBe('GET /ok');
  });

  it('a proxy scheme Keel cannot speak is refused by name', async () => {
    configureNetwork(settings({ httpsProxy: 'socks5://127.0.0.1:1080' }));
    const err = await netFetch(`${front.origin}/x`).catch((e: unknown) => e);
    expect(((err as TypeError).cause as Error).message).toBe(
      'Proxy socks5://127.0.0.1:1080 (HTTPS_PROXY) is not supported: Keel speaks to http:// and https:// proxies',
    );
  });

  it("the model wire's error names a dead proxy", async () => {
    proxy = await startConnectProxy();
    const dead = proxy.url;
    await proxy.close();
    configureNetwork(settings({ httpsProxy: dead }));
    const err = await postStream({ baseURL: `${front.origin}/v1` }, '/chat/completions', { model: 'm' }, undefined).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`Cannot connect to API: Proxy ${dead} refused the connection (on the way to 127.0.0.1:${front.port}); check HTTPS_PROXY`);
    // The socket's own error stays underneath, for the retry policy (ECONNREFUSED) and logs.
    expect(((err as Error).cause as Error & { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
  });

  it("the fetch tool's result names a dead proxy", async () => {
    proxy = await startConnectProxy();
    const dead = proxy.url;
    await proxy.close();
    configureNetwork(settings({ httpsProxy: dead }));
    const env = await createToolEnv('keel-fetch-proxy-');
    try {
      const result = await env.run(fetchTool, { url: `${front.origin}/page` });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `Could not fetch ${front.origin}/page: fetch failed: Proxy ${dead} refused the connection (on the way to 127.0.0.1:${front.port}); check HTTPS_PROXY`,
      );
    } finally {
      await env.cleanup();
    }
  });
});
