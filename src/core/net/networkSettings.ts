import { BlockList, isIP } from 'node:net';

/**
 * How Keel reaches the network: the proxies to use and which hosts bypass them, whether TLS
 * certificates are checked, and which certificate authorities are trusted on top of Node's.
 * Plain data: the CLI builds it from the environment, the extension from VS Code's `http.*`
 * settings (src/vscode/settings/networkSettings.ts).
 */
export interface NetworkSettings {
  /** Proxy for `http:` targets, as a URL (`http://user:pass@proxy:3128`). */
  httpProxy?: string;
  /** Proxy for `https:` targets (reached with HTTP CONNECT). */
  httpsProxy?: string;
  /** A Proxy-Authorization header value for proxies whose URL carries no credentials (VS Code's `http.proxyAuthorization`). */
  proxyAuthorization?: string;
  /** NO_PROXY entries: host names (suffixes match their subdomains), IPs, CIDR ranges, `host:port`, `*`. */
  noProxy: string[];
  /** Reject servers whose certificate is not trusted (VS Code's `http.proxyStrictSSL`). */
  strictSSL: boolean;
  /** PEM files of extra certificate authorities to trust (NODE_EXTRA_CA_CERTS). */
  caFiles: string[];
  /** Also trust the operating system's certificate store (where this Node can read it). */
  systemCertificates: boolean;
  /** Where the person changes these settings, named in errors ("HTTPS_PROXY", "http.proxy"). */
  source: 'environment' | 'vscode';
}

type Env = Record<string, string | undefined>;

/** A variable in the lowercase spelling curl reads first, else the uppercase one. */
function envVar(env: Env, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function splitNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The conventions of curl and most command-line tools: HTTPS_PROXY for https targets,
 * HTTP_PROXY for http ones, NO_PROXY for exceptions, lowercase spellings first. The CA file
 * named by NODE_EXTRA_CA_CERTS is not listed: Node trusts it from startup in every TLS
 * connection of a process started with it (the extension host adds it itself, see
 * src/vscode/settings/networkSettings.ts).
 */
export function networkSettingsFromEnv(env: Env): NetworkSettings {
  const httpProxy = envVar(env, 'http_proxy');
  const httpsProxy = envVar(env, 'https_proxy');
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    noProxy: splitNoProxy(envVar(env, 'no_proxy')),
    strictSSL: true,
    caFiles: [],
    systemCertificates: false,
    source: 'environment',
  };
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** Splits `host`, `host:port`, `[v6]:port` and a bare IPv6 address. */
function entryParts(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1], ...(bracketed[2] ? { port: bracketed[2] } : {}) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1], port: withPort[2] };
  return { host: entry };
}

/** Whether an IP address lies in a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function inRange(host: string, range: string): boolean {
  const [base, bits] = range.split('/');
  const family = isIP(host);
  if (family === 0 || isIP(base) !== family || !/^\d+$/.test(bits)) return false;
  const list = new BlockList();
  list.addSubnet(base, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether NO_PROXY says to reach this URL directly: `*` matches everything; `example.com`,
 * `.example.com` and `*.example.com` match that host and its subdomains; `10.0.0.0/8` the
 * addresses in that range; an entry with a port matches only that port.
 */
export function bypassesProxy(url: URL, noProxy: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  for (const entry of noProxy) {
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (inRange(host, entry)) return true;
      continue;
    }
    const parts = entryParts(entry);
    if (parts.port !== undefined && parts.port !== defaultPort(url)) continue;
    const suffix = parts.host.replace(/^\*?\.+/, '');
    if (!suffix) continue;
    if (host === suffix || host.endsWith(`.${suffix}`)) return true;
  }
  return false;
}

/** The proxy to reach this URL through, or undefined to connect directly. */
export function proxyFor(url: URL, settings: NetworkSettings): URL | undefined {
  const raw = url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  if (!raw || bypassesProxy(url, settings.noProxy)) return undefined;
  // A proxy written without a scheme (`proxy:3128`), as people often do, is an http proxy.
  return new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
}

/** The proxy as errors show it: no credentials. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
