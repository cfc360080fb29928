import { randomBytes } from 'node:crypto';
import { LOCALE_ELEMENT_ID } from '../protocol/localeElement';
import type { PageLocale } from '../protocol/locale';

export interface ChatPageAssets {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per render. */
  nonce: string;
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
 * The chat page: an empty root the UI script renders into, under a policy that allows only
 * this render's script, the extension's own styles, fonts and images (plus data: images),
 * and no network at all. The `csp-nonce` meta lets the UI toolkit's probe style carry the nonce.
 */
export function chatPageHtml(assets: ChatPageAssets): string {
  const { cspSource, nonce } = assets;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
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
  <meta property="csp-nonce" content="${nonce}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
  <title>Keel</title>
</head>
<body>
  <div id="root"></div>
  <script type="application/json" id="${LOCALE_ELEMENT_ID}">${locale}</script>
  <script nonce="${nonce}" src="${attr(assets.script)}"></script>
</body>
</html>`;
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

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
