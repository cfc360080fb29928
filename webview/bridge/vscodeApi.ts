import type { VsCodeWebviewApi } from '../../src/protocol/postMessageTransport';

/** The page's VS Code API: the bus's postMessage, and the state VS Code keeps for the view. */
export interface WebviewApi extends VsCodeWebviewApi {
  /** Kept by VS Code for this view (across reloads); the host reads it back when it recreates the view. */
  setState(state: unknown): void;
}

declare global {
  /** Injected by VS Code into every webview; may be called only once per page. */
  function acquireVsCodeApi(): WebviewApi;
  interface Window {
    /** Acquired by the page's start script, which reads the saved state first (webviewHtml.ts). */
    keelVsCodeApi?: WebviewApi;
  }
}

let api: WebviewApi | undefined;

/** The page's VS Code API, acquired on first use (a second acquireVsCodeApi call throws). */
export function vscodeApi(): WebviewApi {
  api ??= window.keelVsCodeApi ?? acquireVsCodeApi();
  return api;
}
