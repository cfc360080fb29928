import { describe, expect, it, vi } from 'vitest';
import { createHostBus, createWebviewBus } from '../../../src/protocol/buses';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import { createReadyGate } from '../../../src/chat/bus/readyGate';
import type { ToolApprovalRequest } from '../../../src/protocol/toolApproval';
import { PROTOCOL_VERSION } from '../../../src/protocol/version';
import { logLines, logSpy, recordMessages, sampleSnapshot, settle } from '../protocol/busHarness';

const approval: ToolApprovalRequest = {
  id: 'a-1',
  toolCallId: 'tc-1',
  tool: 'write',
  category: 'write',
  summary: 'src/a.ts',
  input: { path: 'src/a.ts' },
  paths: ['/ws/src/a.ts'],
  protected: false,
};

function setup() {
  const [hostRaw, webviewRaw] = createPairTransport();
  const gateLog = logSpy();
  const gate = createReadyGate(hostRaw, gateLog);
  const host = createHostBus(gate.transport, logSpy());
  const webview = createWebviewBus(webviewRaw, logSpy());
  const arrived = recordMessages(webviewRaw);
  let title = 'first';
  gate.onReady(() => host.emit('snapshot', sampleSnapshot(title)));
  const setTitle = (next: string): void => {
    title = next;
  };
  return { gate, gateLog, host, webview, webviewRaw, arrived, setTitle };
}

function kinds(frames: unknown[]): string[] {
  return frames.map((frame) => {
    const { kind, name } = frame as { kind: string; name?: string };
    return name ? `${kind}:${name}` : kind;
  });
}

describe('ReadyGate', () => {
  it('posts nothing to the webview before ready', async () => {
    const { host, arrived, gate } = setup();

    host.emit('state', { running: true, mode: 'act', approvalMode: 'manual', model: null, queued: 0 });
    host.emit('textDelta', { messageId: 'm-1', delta: 'early' });
    const approvalOutcome = host.request('toolApproval', approval).catch((err: unknown) => err);
    await settle();

    expect(arrived).toEqual([]);
    expect(gate.isReady()).toBe(false);
    expect(await approvalOutcome).toMatchObject({ code: 'not_ready' });
  });

  it('sends one snapshot on every ready, built from the state at that moment', async () => {
    const { webview, arrived, setTitle } = setup();
    const snapshots: string[] = [];
    webview.on('snapshot', (snapshot) => snapshots.push(snapshot.session.title ?? ''));

    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();
    setTitle('after reload');
    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();

    expect(kinds(arrived)).toEqual(['event:snapshot', 'event:snapshot']);
    expect(snapshots).toEqual(['first', 'after reload']);
  });

  it('lets events through once ready, and the host bus hears the ready event too', async () => {
    const { host, webview, arrived } = setup();
    const readyListener = vi.fn();
    host.on('ready', readyListener);

    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();
    host.emit('todos', { items: [] });
    await settle();

    expect(kinds(arrived)).toEqual(['event:snapshot', 'event:todos']);
    expect(readyListener).toHaveBeenCalledWith({ protocolVersion: PROTOCOL_VERSION });
  });

  it('fails requests the previous page never answered with peer_reset when the webview reloads', async () => {
    const { host, webview, gate } = setup();
    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();
    // The page that receives this request goes away without answering.
    const stopHanging = webview.handle('toolApproval', () => new Promise(() => undefined));
    const lost = host.request('toolApproval', approval).catch((err: unknown) => err);
    await settle();

    const order: string[] = [];
    gate.onReady(() => order.push('ready listener'));
    void lost.then(() => order.push('old request settled'));
    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();

    expect(await lost).toMatchObject({ code: 'peer_reset' });
    expect(order[0]).toBe('ready listener');
    stopHanging();
    webview.handle('toolApproval', () => ({ approved: true, scope: 'once' }));
    await expect(host.request('toolApproval', approval)).resolves.toEqual({ approved: true, scope: 'once' });
  });

  it('after close, posts nothing until the next ready and fails open requests', async () => {
    const { host, webview, gate, arrived } = setup();
    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();
    webview.handle('toolApproval', () => new Promise(() => undefined));
    const open = host.request('toolApproval', approval).catch((err: unknown) => err);
    await settle();
    arrived.length = 0;

    gate.close();
    host.emit('todos', { items: [] });
    await settle();

    expect(await open).toMatchObject({ code: 'peer_reset' });
    expect(kinds(arrived)).toEqual([]);
    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();
    expect(kinds(arrived)).toEqual(['event:snapshot']);
  });

  it('answers requests the webview makes before ready (it is listening for the reply)', async () => {
    const { host, webview } = setup();
    host.handle('config.get', () => ({
      model: null,
      planModel: null,
      baseUrl: null,
      approvalMode: 'manual',
      apiKeySet: false,
      workspaceTrusted: true,
    }));

    await expect(webview.request('config.get', {})).resolves.toMatchObject({ apiKeySet: false });
  });

  it('on a version mismatch: logs, sends one error event in the webview version, no snapshot, stays closed', async () => {
    const { host, gate, gateLog, webviewRaw, arrived } = setup();
    const staleVersion = PROTOCOL_VERSION + 1;

    webviewRaw.send({ v: staleVersion, kind: 'event', name: 'ready', data: { protocolVersion: staleVersion } });
    await settle();
    host.emit('todos', { items: [] });
    await settle();

    expect(gate.isReady()).toBe(false);
    expect(arrived).toEqual([
      {
        v: staleVersion,
        kind: 'event',
        name: 'error',
        data: { code: 'version_mismatch', message: expect.stringContaining('Reload Window'), retryable: false },
      },
    ]);
    expect(logLines(gateLog, 'error').join('\n')).toContain(`${staleVersion}`);
  });

  it('stops delivering after dispose', async () => {
    const { host, webview, gate } = setup();
    const readyListener = vi.fn();
    host.on('ready', readyListener);
    gate.dispose();

    webview.emit('ready', { protocolVersion: PROTOCOL_VERSION });
    await settle();

    expect(readyListener).not.toHaveBeenCalled();
    expect(gate.isReady()).toBe(false);
  });
});
