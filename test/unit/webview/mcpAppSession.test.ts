import { describe, expect, it } from 'vitest';
import { createWebviewTransport, fromInnerFrame } from '../../../src/protocol/postMessageTransport';
import type { BusMessageEvent } from '../../../src/protocol/postMessageTransport';
import { AppSession, MAX_APP_HEIGHT } from '../../../webview/components/messages/mcpAppSession';
import type { AppSessionOptions } from '../../../webview/components/messages/mcpAppSession';

type Posted = Record<string, unknown>;

function session(over: Partial<AppSessionOptions> = {}) {
  const posted: Posted[] = [];
  const heights: number[] = [];
  const calls: [string, Record<string, unknown>][] = [];
  const s = new AppSession({
    post: (m) => posted.push(m),
    callTool: async (name, args) => {
      calls.push([name, args]);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    },
    setHeight: (h) => heights.push(h),
    hostContext: () => ({ theme: 'dark', displayMode: 'inline' }),
    csp: { connectDomains: [] },
    input: { title: 'Sprint' },
    result: { content: [{ type: 'text', text: 'shown' }], structuredContent: { title: 'Sprint' } },
    version: '9.9.9',
    ...over,
  });
  return { s, posted, heights, calls };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("an MCP App's messages, as Keel answers them", () => {
  it('answers ui/initialize with the version it asked for, the host context and only what Keel offers', async () => {
    const { s, posted } = session();
    s.handle({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2025-11-21', appInfo: { name: 'a', version: '1' }, appCapabilities: {} } });
    await settle();
    expect(posted).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: '2025-11-21',
          hostInfo: { name: 'keel', version: '9.9.9' },
          hostCapabilities: { serverTools: {}, sandbox: { csp: { connectDomains: [] } } },
          hostContext: { theme: 'dark', displayMode: 'inline' },
        },
      },
    ]);
    s.handle({ jsonrpc: '2.0', id: 2, method: 'ui/initialize', params: { protocolVersion: '1999-01-01' } });
    await settle();
    expect((posted[1].result as { protocolVersion: string }).protocolVersion).toBe('2026-01-26');
  });

  it('sends the tool input and then the result once the app is initialized, once', () => {
    const { s, posted } = session();
    s.contextChanged({ theme: 'light' });
    expect(posted).toEqual([]);
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    expect(posted).toEqual([
      { jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { title: 'Sprint' } } },
      { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: 'shown' }], structuredContent: { title: 'Sprint' } } },
    ]);
    s.contextChanged({ theme: 'light' });
    expect(posted[2]).toEqual({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { theme: 'light' } });
  });

  it('takes the height the app reports, capped; nonsense sizes are ignored', () => {
    const { s, heights } = session();
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 212.4 } });
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 50_000 } });
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 'tall' } });
    s.handle({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: -5 } });
    expect(heights).toEqual([213, MAX_APP_HEIGHT]);
  });

  it("passes tools/call to Keel and answers with the server's result, or with the reason it did not run", async () => {
    const { s, posted, calls } = session();
    s.handle({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'add_note', arguments: { text: 'hi' } } });
    await settle();
    expect(calls).toEqual([['add_note', { text: 'hi' }]]);
    expect(posted).toEqual([{ jsonrpc: '2.0', id: 'c1', result: { content: [{ type: 'text', text: 'ran add_note' }] } }]);

    const failing = session({ callTool: () => Promise.reject(new Error('declined')) });
    failing.s.handle({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
    await settle();
    expect(failing.posted).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'declined' } }]);

    s.handle({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } });
    await settle();
    expect(posted.at(-1)).toMatchObject({ id: 8, error: { code: -32602 } });
  });

  it('refuses what Keel does not offer apps (messages to the model, links, resources), and ignores what is not JSON-RPC', async () => {
    const { s, posted, calls } = session();
    for (const [id, method] of [[1, 'ui/message'], [2, 'ui/open-link'], [3, 'resources/read'], [4, 'ui/update-model-context']] as const) {
      s.handle({ jsonrpc: '2.0', id, method, params: {} });
    }
    s.handle({ id: 5, method: 'tools/call', params: { name: 'add_note' } });
    s.handle('tools/call');
    s.handle({ jsonrpc: '2.0', id: 6, result: {} });
    await settle();
    expect(posted.map((p) => (p.error as { code: number }).code)).toEqual([-32601, -32601, -32601, -32601]);
    expect(calls).toEqual([]);
  });

  it('answers ping and keeps the display inline', async () => {
    const { s, posted } = session();
    s.handle({ jsonrpc: '2.0', id: 1, method: 'ping' });
    s.handle({ jsonrpc: '2.0', id: 2, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
    await settle();
    expect(posted).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { mode: 'inline' } },
    ]);
  });
});

describe("the page's bus and frames inside it", () => {
  it('a message from a frame of the page (or a frame inside that) is not the host speaking', () => {
    const page: { parent?: unknown } = {};
    const outer = { parent: undefined as unknown };
    outer.parent = outer;
    page.parent = outer;
    const app = { parent: page };
    const nested = { parent: app };
    expect(fromInnerFrame(app, page)).toBe(true);
    expect(fromInnerFrame(nested, page)).toBe(true);
    expect(fromInnerFrame(outer, page)).toBe(false);
    expect(fromInnerFrame(null, page)).toBe(false);
    expect(fromInnerFrame(undefined, page)).toBe(false);
  });

  it("the page's bus hears the host, never an app's frame posing as it", () => {
    let listener: ((event: BusMessageEvent) => void) | undefined;
    const page = {
      parent: { parent: null },
      addEventListener: (_: 'message', l: (event: BusMessageEvent) => void) => (listener = l),
      removeEventListener: () => undefined,
    };
    const heard: unknown[] = [];
    createWebviewTransport({ postMessage: () => undefined }, page).onMessage((frame) => heard.push(frame));
    listener?.({ data: 'from the host', source: page.parent });
    listener?.({ data: 'from VS Code, no source', source: null });
    listener?.({ data: 'from an app', source: { parent: page } });
    expect(heard).toEqual(['from the host', 'from VS Code, no source']);
  });
});
