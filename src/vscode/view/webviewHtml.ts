import { randomBytes } from 'node:crypto';
import { PAGE_SHOWN } from '../../chat/conversations/earlyMessageBuffer';
import { drawEarlyView } from './earlyViewDraw';
import { earlyViewHtml, earlyViewText } from './earlyViewHtml';
import { LOCALE_ELEMENT_ID } from '../../protocol/localeElement';
import type { PageLocale } from '../../protocol/locale';

export interface ChatPageAssets {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per render. */
  nonce: string;
  /** Another, for the scripts and styles of MCP Apps' frames (which inherit this page's policy); never the page's own. */
  appNonce?: string;
  /** Webview URIs (`asWebviewUri`) as strings. */
  script: string;
  styles: readonly string[];
  /** The page's language and the webview strings translated into it. */
  locale: PageLocale;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The chat page, under a policy that allows only this render's scripts, the extension's own
 * styles, fonts and images (plus data: images), and no network at all.
 *
 * VS Code shows a webview's page only at its `load` event, which a script in the page holds
 * back until it has run. So the page starts with the early view: a composer in plain HTML
 * and the last messages, which a small inline script draws from the state VS Code keeps for
 * the page (the same on a reload and when a hidden view is shown again). That script adds
 * the UI script once the page has loaded; the UI renders into the hidden #root and takes the
 * place of the early view when the host's snapshot is in.
 */
export function chatPageHtml(assets: ChatPageAssets): string {
  const { cspSource, nonce, appNonce } = assets;
  const apps = appNonce ? ` 'nonce-${appNonce}'` : '';
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${apps}`,
    `style-src ${cspSource} 'nonce-${nonce}'${apps}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "connect-src 'none'",
  ].join('; ');
  // `<` is escaped so no string in the catalogue can close the script element early.
  const locale = JSON.stringify(assets.locale).replace(/</g, '\\u003c');
  const styles = assets.styles.map((href) => `  <link rel="stylesheet" nonce="${nonce}" href="${attr(href)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="${attr(assets.locale.language)}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
${appNonce ? `  <meta property="keel-app-nonce" content="${appNonce}">
` : ''}  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
  <title>Keel</title>
</head>
<body>
  <div id="root" hidden></div>
${earlyViewHtml(assets.locale)}
  <script type="application/json" id="${LOCALE_ELEMENT_ID}">${locale}</script>
  <script nonce="${nonce}">${startScript(assets.script, nonce, earlyViewText(assets.locale, 'You'))}</script>
</body>
</html>`;
}

/**
 * Draws the early view's messages from the page's saved state, then, after the page's load
 * event (when VS Code shows it), tells the host the page is on screen and adds the UI script. The page's VS Code API may be acquired once only: it is left on
 * `window.keelVsCodeApi` for the UI (webview/bridge/vscodeApi.ts). Until the UI takes over,
 * Enter in the early composer keeps the text (nothing can be sent yet); the composer is as tall
 * as its placeholder, which wraps in a narrow view.
 */
function startScript(src: string, nonce: string, you: string): string {
  return `(() => {
  const api = acquireVsCodeApi();
  window.keelVsCodeApi = api;
  try {
    (${drawEarlyView.toString()})(api.getState(), document.getElementById('keel-early-list'), ${scriptString(you)});
  } catch (err) {
    console.error('[keel webview] the early view could not be drawn', err);
  }
  const start = () => {
    api.postMessage(${JSON.stringify(PAGE_SHOWN)});
    const script = document.createElement('script');
    script.nonce = ${scriptString(nonce)};
    script.src = ${scriptString(src)};
    document.body.append(script);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  const input = document.getElementById('keel-early-input');
  input?.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) event.preventDefault();
  });
  // As tall as its text, or its placeholder while empty (which wraps in a narrow view), as the chat's composer is.
  // Not measured while the page is hidden (it has no width then); it is once it shows.
  const fit = () => {
    if (!input || input.clientWidth === 0) return;
    input.style.height = 'auto';
    const empty = input.value === '';
    if (empty) input.value = input.placeholder;
    input.style.height = input.scrollHeight + 'px';
    if (empty) input.value = '';
  };
  let width = 0;
  if (input && typeof ResizeObserver === 'function') new ResizeObserver(() => {
    if (input.clientWidth === width) return;
    width = input.clientWidth;
    fit();
  }).observe(input);
  input?.addEventListener('input', fit);
  window.addEventListener('resize', fit);
})();`;
}

/** Shown instead of the chat when its bundle is missing, so a broken build is not a blank view. */
export function missingUiHtml(cspSource: string, nonce: string, missing: readonly string[]): string {
  const csp = `default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'`;
  const list = missing.map((m) => `<li><code>${text(m)}</code></li>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
  <style nonce="${nonce}">body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 8px 12px; }</style>
</head>
<body>
  <p>Keel's chat view is not built: these files are missing from the extension.</p>
  <ul>${list}</ul>
  <p>Run <code>npm run build</code> and reload the window.</p>
</body>
</html>`;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A JavaScript string literal that cannot end the inline script it is in. */
function scriptString(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
