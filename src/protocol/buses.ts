import { hostSide, webviewSide } from './catalogue';
import type { HostSide, WebviewSide } from './catalogue';
import type { LogFn } from './log';
import { MessageBus } from './messageBus';
import type { Transport } from './transport';

/** The host's end: answers host methods, emits host events, asks the webview for approvals. */
export type HostBus = MessageBus<HostSide, WebviewSide>;
/** The webview's end: calls host methods, listens to host events, answers approvals. */
export type WebviewBus = MessageBus<WebviewSide, HostSide>;

/** On the host, pass a ReadyGate's transport so nothing is posted before `ready`. */
export function createHostBus(transport: Transport, log: LogFn): HostBus {
  return new MessageBus({ local: hostSide, remote: webviewSide, transport, log, name: 'host bus' });
}

export function createWebviewBus(transport: Transport, log: LogFn): WebviewBus {
  return new MessageBus({ local: webviewSide, remote: hostSide, transport, log, name: 'webview bus' });
}
