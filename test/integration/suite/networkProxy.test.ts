/// <reference types="mocha" />
// Issue #23, networks people work behind, in a real extension host: with VS Code's `http.proxy`
// set, the model's requests go through that proxy (a CONNECT tunnel for https), trusting the CA
// named by NODE_EXTRA_CA_CERTS; `http.noProxy` sends a host direct; a proxy's refusal is named.
import * as assert from 'node:assert';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import type { ConnectProxy } from '../../fixtures/proxy/connectProxy.ts';
import { startTlsFront, testCaFile } from '../../fixtures/proxy/tlsFront.ts';
import type { TlsFront } from '../../fixtures/proxy/tlsFront.ts';
import { useConfiguredChat } from './support/chatFixture';
import { MODEL, keelHomeForRun, setModelSettings } from './support/keelSetup';

keelHomeForRun();

async function setHttp(key: 'proxy' | 'noProxy', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 10_000;
  while (JSON.stringify(vscode.workspace.getConfiguration('http').inspect(key)?.globalValue) !== JSON.stringify(value)) {
    if (Date.now() > deadline) throw new Error(`http.${key} never reached the extension host`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('behind a proxy set in http.proxy', () => {
  const chat = useConfiguredChat();
  let proxy: ConnectProxy;
  let front: TlsFront;
  const previousCa = process.env.NODE_EXTRA_CA_CERTS;

  before(async () => {
    // On 127.0.0.2: to VS Code's own proxy support a proxy elsewhere, as in real networks.
    proxy = await startConnectProxy({ host: '127.0.0.2' });
    front = await startTlsFront(Number(new URL(chat.server.baseURL).port));
    // Read by Keel when the http settings apply (as a window started with it would have it).
    process.env.NODE_EXTRA_CA_CERTS = testCaFile();
    await setHttp('proxy', proxy.url);
    await setModelSettings({ baseUrl: `${front.origin}/v1`, model: MODEL });
  });
  after(async () => {
    await setHttp('noProxy', undefined);
    await setHttp('proxy', undefined);
    if (previousCa === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = previousCa;
    await setModelSettings({ baseUrl: chat.server.baseURL, model: MODEL });
    await front?.close();
    await proxy?.close();
  });

  it("the model's requests go through a CONNECT tunnel to the https endpoint", async () => {
    chat.server.load({ turns: [reply.text('Answered through the proxy.')] });
    const before = proxy.log.length;
    await chat.page.sendAndSettle('hello through the proxy');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'Answered through the proxy.');
    const tunnels = proxy.log.slice(before);
    assert.ok(tunnels.length > 0, 'the proxy carried the request');
    assert.ok(
      tunnels.every((entry) => entry.method === 'CONNECT' && entry.target === `127.0.0.1:${front.port}`),
      JSON.stringify(tunnels),
    );
  });

  it('a host in http.noProxy is reached directly', async () => {
    await setHttp('noProxy', ['127.0.0.1']);
    chat.server.load({ turns: [reply.text('Answered directly.')] });
    const before = proxy.log.length;
    await chat.page.sendAndSettle('hello directly');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'Answered directly.');
    assert.deepStrictEqual(proxy.log.slice(before), []);
  });

  it('a proxy that refuses the tunnel is named in what the conversation shows', async () => {
    const guarded = await startConnectProxy({ credentials: 'ann:s3cret' });
    try {
      await setHttp('noProxy', undefined);
      await setHttp('proxy', guarded.url);
      chat.server.load({ turns: [reply.text('never')] });
      const from = chat.page.events.length;
      await chat.page.sendAndSettle('hello through a guarded proxy');
      const shown = JSON.stringify(chat.page.events.slice(from));
      assert.ok(
        shown.includes(`Proxy ${guarded.url} refused to open a tunnel to 127.0.0.1:${front.port}: 407 Proxy Authentication Required`),
        shown.slice(0, 2000),
      );
      assert.strictEqual(chat.server.requests.length, 0, 'nothing reached the model');
    } finally {
      await setHttp('proxy', proxy.url);
      await guarded.close();
    }
  });

  it('an http endpoint that VS Code does not treat as local goes to the proxy whole (absolute form)', async () => {
    // 127.0.0.2 is this machine too, but not "localhost" to VS Code's own proxy support, which
    // may then take the request over: the proxy must see the right URL either way.
    const port = Number(new URL(chat.server.baseURL).port);
    const open = new Set<Socket>();
    const relay: Server = createServer((socket) => {
      const inner = connect(port, '127.0.0.1');
      for (const s of [socket, inner]) {
        open.add(s);
        s.on('close', () => open.delete(s));
      }
      socket.pipe(inner).pipe(socket);
      inner.on('error', () => socket.destroy());
      socket.on('error', () => inner.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.2', resolve));
    const base = `http://127.0.0.2:${(relay.address() as AddressInfo).port}/v1`;
    try {
      await setModelSettings({ baseUrl: base, model: MODEL });
      chat.server.load({ turns: [reply.text('Answered over plain http.')] });
      const before = proxy.log.length;
      await chat.page.sendAndSettle('hello over plain http');
      assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'Answered over plain http.');
      assert.deepStrictEqual(
        proxy.log.slice(before).map((entry) => `${entry.method} ${entry.target}`),
        [`POST ${base}/chat/completions`],
      );
    } finally {
      await setModelSettings({ baseUrl: `${front.origin}/v1`, model: MODEL });
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});
