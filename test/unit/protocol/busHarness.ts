import { vi } from 'vitest';
import { createHostBus, createWebviewBus } from '../../../src/protocol/buses';
import type { LogFn } from '../../../src/protocol/log';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import type { Snapshot } from '../../../src/protocol/sessionState';
import type { Transport } from '../../../src/protocol/transport';

/** Lets queued microtasks (pair transport deliveries, handler hops) run to completion. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

export function logSpy() {
  return vi.fn<LogFn>();
}

/** Host and webview buses joined by a pair transport; raw ends exposed for forging frames. */
export function connect() {
  const [hostEnd, webviewEnd] = createPairTransport();
  const hostLog = logSpy();
  const webviewLog = logSpy();
  const host = createHostBus(hostEnd, hostLog);
  const webview = createWebviewBus(webviewEnd, webviewLog);
  return { host, webview, hostEnd, webviewEnd, hostLog, webviewLog };
}

/** A webview bus facing a raw host end, to forge host replies. */
export function webviewAlone() {
  const [hostEnd, webviewEnd] = createPairTransport();
  const webviewLog = logSpy();
  const webview = createWebviewBus(webviewEnd, webviewLog);
  return { webview, hostEnd, webviewLog };
}

/** Records every message arriving at a transport end. */
export function recordMessages(end: Transport): unknown[] {
  const seen: unknown[] = [];
  end.onMessage((message) => seen.push(message));
  return seen;
}

export function logLines(log: ReturnType<typeof logSpy>, level: string): string[] {
  return log.mock.calls.filter(([l]) => l === level).map(([, message]) => message);
}

export function sampleSnapshot(title = 'Fix the build'): Snapshot {
  return {
    session: { id: 's-1', title },
    messages: [
      { id: 'm-1', role: 'user', parts: [{ type: 'text', text: 'hello' }], status: 'done', createdAt: 1 },
    ],
    state: { running: false, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 },
    usage: null,
    pendingApprovals: [],
    todos: [],
    config: { modelConfigured: true, workspaceTrusted: true, problem: null },
  };
}
