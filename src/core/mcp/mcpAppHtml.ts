import { appMimeType, isRecord } from './mcpAppMeta';

/** The domains an app declares it needs (`_meta.ui.csp` of its resource). */
export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** An app ready to show: its page with Keel's policy in it, and the domains the policy names. */
export interface AppPage {
  html: string;
  csp: AppCsp;
}

/** Past this an app's page is refused: it is a page, not a download. */
export const maxAppHtmlChars = 5_000_000;

const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * An origin as a CSP source, and nothing else: a scheme of http(s)/ws(s), a host (a leading
 * `*.` allowed), an optional port. Keywords, paths, `;` and quotes would let a server write its
 * own policy, so they are left out.
 */
const originPattern = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?\/?$/i;

/** VS Code's own resource hosts: an app must not reach the extension's files through them. */
const editorHosts = /vscode-cdn\.net|vscode-resource|vscode-webview/i;

/** The declared domains that are plain origins (at most 50 a list); the rest are dropped. */
export function readAppCsp(meta: unknown): AppCsp {
  const ui = isRecord(meta) && isRecord(meta.ui) ? meta.ui : undefined;
  const csp = ui && isRecord(ui.csp) ? ui.csp : {};
  const list = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((d): d is string => typeof d === 'string' && originPattern.test(d.trim()) && !editorHosts.test(d)).map((d) => d.trim().replace(/\/$/, '')).slice(0, 50) : [];
  return Object.fromEntries(cspKeys.map((k) => [k, list(csp[k])])) as unknown as AppCsp;
}

/**
 * The policy an app runs under, from what it declared: no network unless it named the origins
 * (`connect-src`), scripts, styles, images, fonts and media from itself, inline, and the declared
 * resource origins; no frames, forms, plugins or base URL elsewhere unless declared.
 */
export function appCspPolicy(csp: AppCsp): string {
  const own = (extra: string[], ...base: string[]) => [...base, ...extra].join(' ');
  const res = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${own(res, "'self'", "'unsafe-inline'")}`,
    `style-src ${own(res, "'self'", "'unsafe-inline'")}`,
    `img-src ${own(res, "'self'", 'data:', 'blob:')}`,
    `font-src ${own(res, "'self'", 'data:')}`,
    `media-src ${own(res, "'self'", 'data:', 'blob:')}`,
    `connect-src ${csp.connectDomains.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The page with the policy as its first element, so it holds before anything of the app loads. */
export function withAppCsp(html: string, csp: AppCsp): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(appCspPolicy(csp))}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag) return `${html.slice(0, htmlTag.index + htmlTag[0].length)}<head>${meta}</head>${html.slice(htmlTag.index + htmlTag[0].length)}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}<head>${meta}</head>${html.slice(at)}`;
}

/**
 * The app's page from a `resources/read` answer: the content item of that URI (or the only one),
 * HTML as text or base64, and the domains its `_meta.ui.csp` declares. Throws with
 * what was wrong: the card then shows the text result only.
 */
export function appPage(raw: unknown, uri: string): AppPage {
  const contents = isRecord(raw) && Array.isArray(raw.contents) ? raw.contents.filter(isRecord) : [];
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) throw new Error(`the server's answer to reading ${uri} holds no content of that URI`);
  const type = typeof item.mimeType === 'string' ? item.mimeType.replace(/\s+/g, '').toLowerCase() : '';
  if (type && type !== appMimeType && !type.startsWith('text/html')) throw new Error(`${uri} is ${type}, not an app's HTML (${appMimeType})`);
  const html = typeof item.text === 'string' ? item.text : typeof item.blob === 'string' ? Buffer.from(item.blob, 'base64').toString('utf8') : undefined;
  if (html === undefined) throw new Error(`${uri} has neither text nor blob content`);
  if (html.length > maxAppHtmlChars) throw new Error(`${uri} is ${html.length} characters; Keel shows apps up to ${maxAppHtmlChars}`);
  const csp = readAppCsp(item._meta);
  return { html: withAppCsp(html, csp), csp };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
