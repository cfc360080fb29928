import { errorMessage } from './busError';
import type { LogFn } from './log';
import type { Transport } from './transport';

/** What `acquireVsCodeApi()` returns, as far as the bus needs it. */
export interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
}

/** A message event as far as the bus needs it: what came, and from which window. */
export interface BusMessageEvent {
  data: unknown;
  source?: unknown;
}

/** `window` as far as the bus needs it. */
export interface MessageEventTarget {
  addEventListener(type: 'message', listener: (event: BusMessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: BusMessageEvent) => void): void;
}

/**
 * Whether a message came from a frame inside this page (an MCP App's, or one it made): those
 * speak to their own card, never to the bus, so they cannot pose as the host.
 */
export function fromInnerFrame(source: unknown, self: unknown): boolean {
  let w = source as { parent?: unknown } | null | undefined;
  for (let depth = 0; w && depth < 20; depth++) {
    const parent = w.parent as { parent?: unknown } | undefined;
    if (!parent || parent === w) return false;
    if (parent === self) return true;
    w = parent;
  }
  return false;
}

/** Webview side: posts through the VS Code API and listens on `window`. */
export function createWebviewTransport(api: VsCodeWebviewApi, target: MessageEventTarget): Transport {
  return {
    send(frame) {
      api.postMessage(frame);
    },
    onMessage(listener) {
      const onEvent = (event: BusMessageEvent): void => {
        if (!fromInnerFrame(event.source, target)) listener(event.data);
      };
      target.addEventListener('message', onEvent);
      return () => target.removeEventListener('message', onEvent);
    },
  };
}

/**
 * `vscode.Webview` structurally, so this module stays free of the `vscode` import.
 * VS Code returns a Thenable; PromiseLike covers it.
 */
export interface HostWebview {
  postMessage(message: unknown): PromiseLike<boolean> | boolean;
  onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void };
}

/**
 * Host side. A `false` from postMessage means the view is hidden or gone; that is
 * expected (the next `ready` brings a snapshot), so it is logged at debug level only.
 */
export function createHostTransport(webview: HostWebview, log: LogFn): Transport {
  return {
    send(frame) {
      const accepted = webview.postMessage(frame);
      if (typeof accepted === 'boolean') {
        if (!accepted) log('debug', 'webview did not accept a message (hidden or disposed)');
        return;
      }
      accepted.then(
        (ok) => {
          if (!ok) log('debug', 'webview did not accept a message (hidden or disposed)');
        },
        (err: unknown) => log('warn', `posting to the webview failed: ${errorMessage(err)}`),
      );
    },
    onMessage(listener) {
      const subscription = webview.onDidReceiveMessage(listener);
      return () => subscription.dispose();
    },
  };
}
