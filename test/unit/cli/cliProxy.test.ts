import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { startConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import type { ConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import { startTlsFront, testCaFile } from '../../fixtures/proxy/tlsFront.ts';
import type { TlsFront } from '../../fixtures/proxy/tlsFront.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();
let front: TlsFront;
let proxy: ConnectProxy;

beforeAll(async () => {
  front = await startTlsFront(Number(new URL(rig.server.baseURL).port));
});
afterAll(() => front.close());
afterEach(() => proxy?.close());

function keel(turns: Turn[], baseURL: string, env: Record<string, string>) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', baseURL, '--approval', 'yolo', '--output', 'stream-json', 'Go'], {
    KEEL_HOME: rig.box.home,
    NODE_EXTRA_CA_CERTS: testCaFile(),
    ...env,
  });
}

const httpsBase = () => `${front.origin}/v1`;
const frontAuthority = () => `127.0.0.1:${front.port}`;

describe('keel run behind a proxy', () => {
  it('with HTTPS_PROXY the model and the fetch tool go through CONNECT tunnels, trusting NODE_EXTRA_CA_CERTS', async () => {
    proxy = await startConnectProxy();
    // The page is fetched by another name of the same server, so its tunnel shows apart from the model's.
    const page = `https://localhost:${front.port}/v1/models`;
    const r = await keel(
      [reply.tool('fetch', { url: page }), { ...reply.text('Fetched.'), match: { lastToolResultIncludes: 'scripted-model' } }],
      httpsBase(),
      { HTTPS_PROXY: proxy.url },
    );
    expect(r.stderr).toBe('');
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'Fetched.' });
    expect(new Set(proxy.log.map((entry) => `${entry.method} ${entry.target}`))).toEqual(
      new Set([`CONNECT ${frontAuthority()}`, `CONNECT localhost:${front.port}`]),
    );
    expect(rig.server.pendingTurns()).toBe(0);
  });

  it('lowercase https_proxy works the same, and NO_PROXY sends matching hosts direct', async () => {
    proxy = await startConnectProxy();
    const through = await keel([reply.text('Via proxy.')], httpsBase(), { https_proxy: proxy.url });
    expect(through.lines.at(-1)).toMatchObject({ success: true, text: 'Via proxy.' });
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: frontAuthority() }]);

    const direct = await keel([reply.text('Direct.')], httpsBase(), { HTTPS_PROXY: proxy.url, NO_PROXY: `localhost,127.0.0.1:${front.port}` });
    expect(direct.lines.at(-1)).toMatchObject({ success: true, text: 'Direct.' });
    expect(proxy.log).toHaveLength(1);
  });

  it('an http endpoint goes to HTTP_PROXY in absolute form', async () => {
    proxy = await startConnectProxy();
    const r = await keel([reply.text('Plain.')], rig.server.baseURL, { HTTP_PROXY: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(r.lines.at(-1)).toMatchObject({ success: true, text: 'Plain.' });
    expect(proxy.log).toEqual([{ method: 'POST', target: `${rig.server.baseURL}/chat/completions` }]);
  });

  it('a proxy that refuses the tunnel is named in the error, with what to do', async () => {
    proxy = await startConnectProxy({ credentials: 'ann:s3cret' });
    const r = await keel([reply.text('never')], httpsBase(), { HTTPS_PROXY: proxy.url });
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: false });
    expect(JSON.stringify(r.lines)).toContain(
      `Proxy ${proxy.url} refused to open a tunnel to ${frontAuthority()}: 407 Proxy Authentication Required; the proxy wants credentials`,
    );
  });

  it('an untrusted certificate says which setting fixes it', async () => {
    const r = await keel([reply.text('never')], httpsBase(), { NODE_EXTRA_CA_CERTS: '' });
    expect(r.code).toBe(1);
    expect(JSON.stringify(r.lines)).toMatch(new RegExp(`TLS: certificate of ${frontAuthority()} not trusted \\(\\w+\\); set NODE_EXTRA_CA_CERTS`));
  });
});
