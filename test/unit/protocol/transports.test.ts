import { describe, expect, it, vi } from 'vitest';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import { createHostTransport, createWebviewTransport } from '../../../src/protocol/postMessageTransport';
import type { HostWebview, MessageEventTarget } from '../../../src/protocol/postMessageTransport';
import { logLines, logSpy, recordMessages, settle } from './busHarness';

describe('createPairTransport', () => {
  it('delivers asynchronously, in order, to the other end only', async () => {
    const [a, b] = createPairTransport();
    const atA = recordMessages(a);
    const atB = recordMessages(b);

    a.send({ n: 1 });
    a.send({ n: 2 });
    expect(atB).toEqual([]);
    await settle();

    expect(atB).toEqual([{ n: 1 }, { n: 2 }]);
    expect(atA).toEqual([]);
  });

  it('delivers a JSON copy, like postMessage', async () => {
    const [a, b] = createPairTransport();
    const atB = recordMessages(b);
    const frame = { text: 'before', gone: undefined };

    a.send(frame);
    frame.text = 'after';
    await settle();

    expect(atB).toEqual([{ text: 'before' }]);
    expect(Object.keys(atB[0] as object)).toEqual(['text']);
    expect(() => a.send({ big: 1n })).toThrow();
  });

  it('stops delivering after unsubscribe', async () => {
    const [a, b] = createPairTransport();
    const listener = vi.fn();
    const off = b.onMessage(listener);
    off();
    a.send({});
    await settle();
    expect(listener).not.toHaveBeenCalled();
  });
});

function fakeWebview(postResult: () => ReturnType<HostWebview['postMessage']>) {
  let listener: ((message: unknown) => void) | undefined;
  const dispose = vi.fn();
  const webview: HostWebview = {
    postMessage: vi.fn(postResult),
    onDidReceiveMessage(l) {
      listener = l;
      return { dispose };
    },
  };
  return { webview, dispose, receive: (message: unknown) => listener?.(message) };
}

describe('createHostTransport', () => {
  it('logs at debug level when the webview does not take a message', async () => {
    const log = logSpy();
    const { webview } = fakeWebview(() => Promise.resolve(false));
    createHostTransport(webview, log).send({ a: 1 });
    await settle();
    expect(logLines(log, 'debug')).toHaveLength(1);
  });

  it('logs a warning when posting fails, and nothing when it succeeds', async () => {
    const log = logSpy();
    const failing = fakeWebview(() => Promise.reject(new Error('Webview is disposed')));
    createHostTransport(failing.webview, log).send({});
    const fine = fakeWebview(() => true);
    createHostTransport(fine.webview, log).send({});
    await settle();
    expect(log.mock.calls).toEqual([['warn', expect.stringContaining('Webview is disposed')]]);
  });

  it('passes received messages on and disposes its subscription on unsubscribe', () => {
    const { webview, dispose, receive } = fakeWebview(() => true);
    const transport = createHostTransport(webview, logSpy());
    const listener = vi.fn();
    const off = transport.onMessage(listener);
    receive({ kind: 'event' });
    off();
    expect(listener).toHaveBeenCalledWith({ kind: 'event' });
    expect(dispose).toHaveBeenCalledOnce();
  });
});

describe('createWebviewTransport', () => {
  it('posts through the VS Code API and reads message events from the window', () => {
    const api = { postMessage: vi.fn() };
    const handlers = new Set<(event: { data: unknown }) => void>();
    const target: MessageEventTarget = {
      addEventListener: (_type, handler) => handlers.add(handler),
      removeEventListener: (_type, handler) => handlers.delete(handler),
    };
    const transport = createWebviewTransport(api, target);
    const listener = vi.fn();

    transport.send({ kind: 'event' });
    const off = transport.onMessage(listener);
    for (const handler of handlers) handler({ data: { from: 'host' } });
    off();

    expect(api.postMessage).toHaveBeenCalledWith({ kind: 'event' });
    expect(listener).toHaveBeenCalledWith({ from: 'host' });
    expect(handlers.size).toBe(0);
  });
});
