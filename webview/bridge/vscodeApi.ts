import type { VsCodeWebviewApi } from '../../src/protocol/postMessageTransport';

declare global {
  /** Injected by VS Code into every webview; may be called only once per page. */
  function acquireVsCodeApi(): VsCodeWebviewApi;
}

let api: VsCodeWebviewApi | undefined;

/** The page's VS Code API, acquired on first use (a second acquireVsCodeApi call throws). */
export function vscodeApi(): VsCodeWebviewApi {
  api ??= acquireVsCodeApi();
  return api;
}
