import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusError, isBusError } from '../../../src/protocol/busError';
import type { EventData } from '../../../src/protocol/catalogue';
import type { ToolApprovalRequest } from '../../../src/protocol/toolApproval';
import { PROTOCOL_VERSION } from '../../../src/protocol/version';
import { connect, logLines, recordMessages, settle, webviewAlone } from './busHarness';

const approval: ToolApprovalRequest = {
  id: 'a-1',
  toolCallId: 'tc-1',
  tool: 'bash',
  category: 'command',
  summary: 'npm test',
  input: { command: 'npm test' },
  paths: [],
  protected: false,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('MessageBus requests', () => {
  it('round-trips typed params and result', async () => {
    const { host, webview } = connect();
    const handler = vi.fn(async ({ query }: { query: string }) => ({
      results: [{ path: `src/${query}.ts`, kind: 'file' as const }],
    }));
    host.handle('files.search', handler);

    const result = await webview.request('files.search', { query: 'loop' });

    expect(result).toEqual({ results: [{ path: 'src/loop.ts', kind: 'file' }] });
    expect(handler).toHaveBeenCalledWith({ query: 'loop' }, expect.objectContaining({ signal: expect.any(AbortSignal) }));
  });

  it('answers invalid params with invalid_params and never runs the handler', async () => {
    const { host, hostLog, webviewEnd } = connect();
    const handler = vi.fn(() => ({ results: [] }));
    host.handle('files.search', handler);
    const replies = recordMessages(webviewEnd);

    webviewEnd.send({ v: PROTOCOL_VERSION, kind: 'request', id: 'r1', method: 'files.search', params: { query: 42 } });
    await settle();

    expect(handler).not.toHaveBeenCalled();
    expect(replies).toEqual([
      expect.objectContaining({ kind: 'response', id: 'r1', ok: false, error: expect.objectContaining({ code: 'invalid_params' }) }),
    ]);
    expect(logLines(hostLog, 'warn').join('\n')).toContain('files.search');
  });

  it('rejects invalid params on the calling side before anything is sent', async () => {
    const { webview, webviewEnd, hostEnd } = connect();
    const sent = recordMessages(hostEnd);
    const sendSpy = vi.spyOn(webviewEnd, 'send');

    const call = webview.request('sessions.resume', { id: '' });

    await expect(call).rejects.toMatchObject({ code: 'invalid_params' });
    await settle();
    expect(sendSpy).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
  });

  it('answers an unknown method with unknown_method', async () => {
    const { webviewEnd } = connect();
    const replies = recordMessages(webviewEnd);

    webviewEnd.send({ v: PROTOCOL_VERSION, kind: 'request', id: 'r2', method: 'fs.deleteEverything', params: {} });
    await settle();

    expect(replies).toEqual([
      expect.objectContaining({ id: 'r2', ok: false, error: expect.objectContaining({ code: 'unknown_method' }) }),
    ]);
  });

  it('answers a known method without a handler with unknown_method naming it', async () => {
    const { webview } = connect();
    await expect(webview.request('models.list', {})).rejects.toMatchObject({
      code: 'unknown_method',
      message: expect.stringContaining('models.list'),
    });
  });

  it('turns a handler exception into an error response carrying only the message', async () => {
    const { host, webview } = connect();
    host.handle('sessions.resume', () => {
      throw new Error('session s-9 not found');
    });

    const error = await webview.request('sessions.resume', { id: 's-9' }).catch((err: unknown) => err);

    expect(isBusError(error, 'handler_error')).toBe(true);
    expect((error as BusError).message).toBe('session s-9 not found');
    expect((error as BusError).data).toBeUndefined();
  });

  it('passes a BusError code and data from the handler through', async () => {
    const { host, webview } = connect();
    host.handle('session.send', () => {
      throw new BusError('model_not_configured', 'Set keel.model first', { setting: 'keel.model' });
    });

    await expect(webview.request('session.send', { text: 'hi' })).rejects.toMatchObject({
      code: 'model_not_configured',
      message: 'Set keel.model first',
      data: { setting: 'keel.model' },
    });
  });

  it('answers invalid_result when a handler returns something off-schema', async () => {
    const { host, webview, hostLog } = connect();
    // Cast: simulates a handler whose runtime value escaped the type checker.
    host.handle('session.cancel', () => ({ cancelled: 'yes' }) as unknown as { cancelled: boolean });

    await expect(webview.request('session.cancel', {})).rejects.toMatchObject({ code: 'invalid_result' });
    expect(logLines(hostLog, 'error').join('\n')).toContain('session.cancel');
  });

  it('rejects the caller when the response does not match the result schema', async () => {
    const { webview, webviewLog, hostEnd } = webviewAlone();
    hostEnd.onMessage((frame) => {
      const { id } = frame as { id: string };
      hostEnd.send({ v: PROTOCOL_VERSION, kind: 'response', id, ok: true, result: { cancelled: 'nope' } });
    });

    const error = await webview.request('session.cancel', {}).catch((err: unknown) => err);

    expect(isBusError(error, 'invalid_response')).toBe(true);
    expect((error as Error).message).toContain('session.cancel');
    expect(logLines(webviewLog, 'error')).toHaveLength(1);
  });

  it('rejects with version_mismatch when the reply comes in another protocol version', async () => {
    const { webview, hostEnd } = webviewAlone();
    hostEnd.onMessage((frame) => {
      const { id } = frame as { id: string };
      hostEnd.send({ v: PROTOCOL_VERSION + 1, kind: 'response', id, ok: true, result: { cancelled: true } });
    });

    await expect(webview.request('session.cancel', {})).rejects.toMatchObject({ code: 'version_mismatch' });
  });

  it('refuses a second handler for the same method', () => {
    const { host } = connect();
    host.handle('config.get', () => {
      throw new Error('unused');
    });
    expect(() =>
      host.handle('config.get', () => {
        throw new Error('unused');
      }),
    ).toThrow(/already registered/);
  });

  it('stops answering after the handler is unsubscribed', async () => {
    const { host, webview } = connect();
    const off = host.handle('session.cancel', () => ({ cancelled: true }));
    await expect(webview.request('session.cancel', {})).resolves.toEqual({ cancelled: true });
    off();
    await expect(webview.request('session.cancel', {})).rejects.toMatchObject({ code: 'unknown_method' });
  });
});

describe('MessageBus malformed frames', () => {
  it.each([
    ['a string', 'hello'],
    ['null', null],
    ['an array', [1, 2]],
    ['a frame without kind', { v: PROTOCOL_VERSION, id: 'x' }],
    ['a request without id', { v: PROTOCOL_VERSION, kind: 'request', method: 'session.cancel', params: {} }],
    ['an event with an extra key', { v: PROTOCOL_VERSION, kind: 'event', name: 'ready', data: { protocolVersion: 1 }, x: 1 }],
    ['a cancel without id', { v: PROTOCOL_VERSION, kind: 'cancel' }],
  ])('logs and drops %s without throwing or replying', async (_label, raw) => {
    const { host, hostLog, webviewEnd } = connect();
    const readyListener = vi.fn();
    host.on('ready', readyListener);
    const replies = recordMessages(webviewEnd);

    webviewEnd.send(raw);
    await settle();

    expect(logLines(hostLog, 'error')).toHaveLength(1);
    expect(readyListener).not.toHaveBeenCalled();
    expect(replies).toEqual([]);
  });

  it('answers a request in the wrong version with version_mismatch and runs nothing', async () => {
    const { host, hostLog, webviewEnd } = connect();
    const handler = vi.fn(() => ({ cancelled: true }));
    host.handle('session.cancel', handler);
    const replies = recordMessages(webviewEnd);

    webviewEnd.send({ v: PROTOCOL_VERSION + 1, kind: 'request', id: 'old-1', method: 'session.cancel', params: {} });
    await settle();

    expect(handler).not.toHaveBeenCalled();
    expect(replies).toEqual([
      expect.objectContaining({ id: 'old-1', ok: false, error: expect.objectContaining({ code: 'version_mismatch' }) }),
    ]);
    expect(logLines(hostLog, 'error').join('\n')).toMatch(/version/i);
  });

  it('answers a request with a usable id but a malformed envelope with invalid_request', async () => {
    const { webviewEnd } = connect();
    const replies = recordMessages(webviewEnd);

    webviewEnd.send({ v: PROTOCOL_VERSION, kind: 'request', id: 'r3', params: {} });
    await settle();

    expect(replies).toEqual([
      expect.objectContaining({ id: 'r3', ok: false, error: expect.objectContaining({ code: 'invalid_request' }) }),
    ]);
  });
});

describe('MessageBus events', () => {
  it('delivers valid events to listeners with parsed data', async () => {
    const { host, webview } = connect();
    const listener = vi.fn();
    webview.on('textDelta', listener);

    host.emit('textDelta', { messageId: 'm-1', delta: 'Hel' });
    host.emit('textDelta', { messageId: 'm-1', delta: 'lo' });
    await settle();

    expect(listener.mock.calls).toEqual([[{ messageId: 'm-1', delta: 'Hel' }], [{ messageId: 'm-1', delta: 'lo' }]]);
  });

  it('drops events with invalid data, with a log, before any listener', async () => {
    const { webview, webviewLog, hostEnd } = connect();
    const listener = vi.fn();
    webview.on('usage', listener);

    hostEnd.send({ v: PROTOCOL_VERSION, kind: 'event', name: 'usage', data: { inputTokens: -1, outputTokens: 3 } });
    await settle();

    expect(listener).not.toHaveBeenCalled();
    expect(logLines(webviewLog, 'error').join('\n')).toContain('usage');
  });

  it('drops unknown events with a log', async () => {
    const { webviewLog, hostEnd } = connect();
    hostEnd.send({ v: PROTOCOL_VERSION, kind: 'event', name: 'runScript', data: {} });
    await settle();
    expect(logLines(webviewLog, 'warn').join('\n')).toContain('runScript');
  });

  it('does not send an event whose data fails its schema, and logs it', async () => {
    const { host, hostLog, webviewEnd } = connect();
    const arrived = recordMessages(webviewEnd);

    // Cast: simulates data that escaped the type checker.
    host.emit('state', { running: true } as unknown as EventData<'state'>);
    await settle();

    expect(arrived).toEqual([]);
    expect(logLines(hostLog, 'error').join('\n')).toContain('state');
  });

  it('keeps delivering to other listeners when one throws, and logs the failure', async () => {
    const { host, webview, webviewLog } = connect();
    const second = vi.fn();
    webview.on('todos', () => {
      throw new Error('render failed');
    });
    webview.on('todos', second);

    host.emit('todos', { items: [] });
    await settle();

    expect(second).toHaveBeenCalledWith({ items: [] });
    expect(logLines(webviewLog, 'error').join('\n')).toContain('render failed');
  });

  it('stops delivering after a listener unsubscribes', async () => {
    const { host, webview } = connect();
    const listener = vi.fn();
    const off = webview.on('todos', listener);
    off();
    host.emit('todos', { items: [] });
    await settle();
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('MessageBus cancellation, timeout, dispose', () => {
  it('aborting the signal fires the remote handler signal and rejects the caller with an AbortError', async () => {
    const { host, webview } = connect();
    let handlerSignal: AbortSignal | undefined;
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    webview.handle('toolApproval', (_params, { signal }) => {
      handlerSignal = signal;
      started();
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const controller = new AbortController();

    const call = host.request('toolApproval', approval, { signal: controller.signal });
    const outcome = call.catch((err: unknown) => err);
    await handlerStarted;
    controller.abort();
    const error = await outcome;
    await settle();

    expect(error).toMatchObject({ name: 'AbortError', code: 'aborted' });
    expect(handlerSignal?.aborted).toBe(true);
  });

  it('does not answer a request that was cancelled, and the caller logs no stray response', async () => {
    const { host, webview, hostLog, hostEnd } = connect();
    const responses = recordMessages(hostEnd);
    webview.handle('toolApproval', async (_params, { signal }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return { approved: true, scope: 'once' };
    });
    const controller = new AbortController();

    const outcome = host.request('toolApproval', approval, { signal: controller.signal }).catch((err: unknown) => err);
    await settle();
    controller.abort();
    await outcome;
    await settle();

    expect(responses.filter((frame) => (frame as { kind: string }).kind === 'response')).toEqual([]);
    expect(logLines(hostLog, 'warn')).toEqual([]);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { host, hostEnd } = connect();
    const controller = new AbortController();
    controller.abort();
    const sendSpy = vi.spyOn(hostEnd, 'send');

    await expect(host.request('toolApproval', approval, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(sendSpy).not.toHaveBeenCalled();
  });

  it('times out, sends cancel, and aborts the remote handler', async () => {
    vi.useFakeTimers();
    const { host, webview, webviewEnd } = connect();
    const arrived = recordMessages(webviewEnd);
    let handlerSignal: AbortSignal | undefined;
    webview.handle('toolApproval', (_params, { signal }) => {
      handlerSignal = signal;
      return new Promise(() => undefined);
    });

    const outcome = host.request('toolApproval', approval, { timeoutMs: 5_000 }).catch((err: unknown) => err);
    await settle();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(handlerSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    await settle();

    expect(error).toMatchObject({ code: 'timeout', message: expect.stringContaining('toolApproval') });
    expect(arrived.map((frame) => (frame as { kind: string }).kind)).toEqual(['request', 'cancel']);
    expect(handlerSignal?.aborted).toBe(true);
  });

  it('dispose rejects every request in flight and aborts running handlers', async () => {
    const { host, webview } = connect();
    let handlerSignal: AbortSignal | undefined;
    webview.handle('toolApproval', (_params, { signal }) => {
      handlerSignal = signal;
      return new Promise(() => undefined);
    });
    host.handle('sessions.list', () => new Promise(() => undefined));

    const first = host.request('toolApproval', approval).catch((err: unknown) => err);
    const second = webview.request('sessions.list', {}).catch((err: unknown) => err);
    await settle();
    host.dispose();
    webview.dispose();

    expect(await first).toMatchObject({ code: 'disposed' });
    expect(await second).toMatchObject({ code: 'disposed' });
    expect(handlerSignal?.aborted).toBe(true);
    await expect(webview.request('session.cancel', {})).rejects.toMatchObject({ code: 'disposed' });
  });

  it('rejects with send_failed when the transport throws', async () => {
    const { webview, webviewEnd } = connect();
    vi.spyOn(webviewEnd, 'send').mockImplementation(() => {
      throw new Error('webview is gone');
    });

    await expect(webview.request('session.cancel', {})).rejects.toMatchObject({
      code: 'send_failed',
      message: expect.stringContaining('webview is gone'),
    });
  });
});
