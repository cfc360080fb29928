import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { ClientRequest, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import * as tls from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { networkSettingsFromEnv, proxyFor, proxyLabel } from './networkSettings';
import type { NetworkSettings } from './networkSettings';
import { explainNetError, ProxyError } from './netErrors';
import type { FailureScene } from './netErrors';
import { ForwardAgent, proxyAuthorization, TunnelAgent } from './proxyTunnel';

/** The settings made usable: TLS options and the agents, each built on first use and reused. */
interface Network {
  settings: NetworkSettings;
  /** Whether TLS differs from Node's defaults (extra CAs, no certificate checks). */
  customTls: boolean;
  /** Those TLS options, once an https request needed them (a secure context costs milliseconds). */
  tls?: ConnectionOptions;
  /** The agent for direct https connections with those options. */
  directHttps?: HttpsAgent;
  /** Per proxy URL: the CONNECT agent for https targets, the agent to the proxy for http ones. */
  tunnels: Map<string, TunnelAgent>;
  forwards: Map<string, ForwardAgent>;
}

/** The settings a host gave (undefined: the environment's); built into `network` on first use. */
let configured: NetworkSettings | undefined;
let network: Network | undefined;

/** Where people change the proxy, as errors name it. */
function proxySetting(settings: NetworkSettings, https: boolean): string {
  if (settings.source === 'vscode') return 'the http.proxy setting';
  return https ? 'HTTPS_PROXY' : 'HTTP_PROXY';
}

function caHint(settings: NetworkSettings): string {
  return settings.source === 'vscode'
    ? 'set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signs it (or add that CA to the system certificates, with http.systemCertificates on)'
    : 'set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signs it';
}

// tls.getCACertificates arrived in Node 22.15 / 23.10; older runtimes have no system store to read.
const getCACertificates = (tls as { getCACertificates?: (kind: string) => string[] }).getCACertificates;

function systemCertificates(): string[] {
  return getCACertificates ? getCACertificates('system') : [];
}

function tlsOptions(settings: NetworkSettings): ConnectionOptions {
  const options: ConnectionOptions = {};
  if (!settings.strictSSL) options.rejectUnauthorized = false;
  if (settings.caFiles.length > 0 || settings.systemCertificates) {
    const extra = settings.caFiles.map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (err) {
        throw new Error(`Cannot read the CA certificates in ${file} (NODE_EXTRA_CA_CERTS): ${(err as Error).message}`, { cause: err });
      }
    });
    const system = settings.systemCertificates ? systemCertificates() : [];
    if (extra.length > 0 || system.length > 0) {
      options.secureContext = tls.createSecureContext({ ca: [...tls.rootCertificates, ...system, ...extra] });
    }
  }
  return options;
}

function build(settings: NetworkSettings): Network {
  const customTls = !settings.strictSSL || settings.caFiles.length > 0 || (settings.systemCertificates && getCACertificates !== undefined);
  return { settings, customTls, tunnels: new Map(), forwards: new Map() };
}

function tlsOf(net: Network): ConnectionOptions {
  net.tls ??= net.customTls ? tlsOptions(net.settings) : {};
  return net.tls;
}

/**
 * An agent of settings no longer in force: its idle connections close now, the ones in use (a
 * model's answer still streaming) when their request ends, instead of going back to the pool.
 */
function retire(agent: HttpAgent): void {
  (agent as HttpAgent & { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

function retireAll(old: Network | undefined): void {
  if (old?.directHttps) retire(old.directHttps);
  for (const agent of old?.tunnels.values() ?? []) retire(agent);
  for (const agent of old?.forwards.values() ?? []) retire(agent);
}

/**
 * Sets how every request of this process reaches the network: the model wires, MCP's HTTP
 * transports, the fetch tool, the AI SDK's providers. Connections opened under the previous
 * settings close once idle.
 */
export function configureNetwork(settings: NetworkSettings): void {
  retireAll(network);
  network = undefined;
  configured = settings;
}

/** Without a host's settings (a test, a script), the environment's conventions apply. */
function current(): Network {
  network ??= build(configured ?? networkSettingsFromEnv(process.env));
  return network;
}

/** Whether a request to this URL needs Keel's own client (a proxy or TLS options), or fetch as it is will do. */
export function needsOwnClient(target: URL): boolean {
  const net = current();
  const proxy = checkedProxy(target, net);
  if (proxy) return true;
  // TLS options matter only where there is TLS.
  return target.protocol === 'https:' && net.customTls;
}

function checkedProxy(target: URL, net: Network): URL | undefined {
  const https = target.protocol === 'https:';
  let proxy: URL | undefined;
  try {
    proxy = proxyFor(target, net.settings);
  } catch (err) {
    throw new ProxyError(`The proxy in ${proxySetting(net.settings, https)} is not a valid URL`, { cause: err });
  }
  if (proxy && proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new ProxyError(`Proxy ${proxyLabel(proxy)} (${proxySetting(net.settings, https)}) is not supported: Keel speaks to http:// and https:// proxies`);
  }
  return proxy;
}

function sceneFor(target: URL, net: Network, proxy: URL | undefined): FailureScene {
  const https = target.protocol === 'https:';
  return {
    target: target.host || target.hostname,
    ...(proxy ? { proxy: proxyLabel(proxy), proxySetting: proxySetting(net.settings, https) } : {}),
    caHint: caHint(net.settings),
  };
}

/** Names a TLS failure of a request that went out directly, through fetch as it is. */
export function explainDirectFailure(target: URL, err: unknown): unknown {
  return explainNetError(err, sceneFor(target, current(), undefined));
}

export interface OpenedRequest {
  req: ClientRequest;
  /** Names a proxy or TLS failure of this request (other errors pass through). */
  explain: (err: unknown) => unknown;
}

/**
 * An HTTP request to `target` the way the settings say: directly, through a CONNECT tunnel
 * (https targets behind a proxy) or sent to the proxy in absolute form (http targets).
 */
export function openRequest(target: URL, init: { method: string; headers: OutgoingHttpHeaders; signal?: AbortSignal }): OpenedRequest {
  const net = current();
  const https = target.protocol === 'https:';
  const proxy = checkedProxy(target, net);
  const scene = sceneFor(target, net, proxy);
  const explain = (err: unknown) => explainNetError(err, scene);
  const { method, headers, signal } = init;
  if (!proxy && !https) return { req: httpRequest(target, { method, headers, signal }), explain };
  if (!proxy) {
    if (net.customTls) net.directHttps ??= new HttpsAgent({ keepAlive: true, ...tlsOf(net) });
    return { req: httpsRequest(target, { method, headers, signal, ...(net.directHttps ? { agent: net.directHttps } : {}) }), explain };
  }
  // Credentials in the proxy URL, else the header the person set (VS Code's http.proxyAuthorization).
  const hop = { proxy, tls: tlsOf(net), authorization: proxyAuthorization(proxy) ?? net.settings.proxyAuthorization };
  if (https) {
    let agent = net.tunnels.get(proxy.href);
    if (!agent) {
      agent = new TunnelAgent(hop, { keepAlive: true, ...hop.tls });
      net.tunnels.set(proxy.href, agent);
    }
    return { req: httpsRequest(target, { method, headers, signal, agent }), explain };
  }
  // An http target: the whole URL goes to the proxy, which forwards it.
  let agent = net.forwards.get(proxy.href);
  if (!agent) {
    agent = new ForwardAgent(hop, { keepAlive: true });
    net.forwards.set(proxy.href, agent);
  }
  return { req: httpRequest(target, { method, headers, signal, agent }), explain };
}
