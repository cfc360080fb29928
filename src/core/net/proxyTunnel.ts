import { Agent as HttpAgent } from 'node:http';
import type { AgentOptions as HttpAgentOptions, ClientRequest } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AgentOptions, RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { proxyLabel } from './networkSettings';
import { ProxyError, tunnelRefused } from './netErrors';

/** How long the proxy may take to open a tunnel. */
const TUNNEL_TIMEOUT_MS = 30_000;
/** A CONNECT answer's head larger than this is not a proxy speaking HTTP. */
const MAX_HEAD_BYTES = 64 * 1024;

/** `Proxy-Authorization` for credentials written in the proxy URL, if any. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

export function proxyPort(proxy: URL): number {
  return Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
}

/** A proxy as the agents reach it. */
export interface ProxyHop {
  proxy: URL;
  /** TLS options for an `https://` proxy (the same CAs as for servers). */
  tls: ConnectionOptions;
  /** The Proxy-Authorization header's value, if the proxy wants one. */
  authorization: string | undefined;
}

/** A socket to the proxy itself: plain TCP, or TLS for an `https://` proxy. */
export function connectToProxy(proxy: URL, tls: ConnectionOptions): Socket {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const port = proxyPort(proxy);
  return proxy.protocol === 'https:' ? tlsConnect({ ...tls, host, port, servername: host }) : netConnect({ host, port });
}

/**
 * Asks the proxy for a tunnel to `host:port` (HTTP CONNECT) and resolves with the socket once
 * it answered 200; the TLS to the server then runs inside it, so the proxy sees only where the
 * connection goes, never what it carries.
 */
export function openTunnel({ proxy, tls: proxyTls, authorization }: ProxyHop, host: string, port: number): Promise<Socket> {
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const label = proxyLabel(proxy);
  return new Promise((resolve, reject) => {
    const socket = connectToProxy(proxy, proxyTls);
    let head = Buffer.alloc(0);
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(TUNNEL_TIMEOUT_MS, () =>
      fail(Object.assign(new Error(`no answer to CONNECT within ${TUNNEL_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    const closed = () => fail(Object.assign(new Error('the proxy closed the connection'), { code: 'ECONNRESET' }));
    socket.on('error', fail);
    socket.on('close', closed);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) fail(new ProxyError(`Proxy ${label} sent no valid answer to CONNECT ${authority}`));
        return;
      }
      socket.off('data', onData);
      socket.off('close', closed);
      socket.removeListener('error', fail);
      socket.setTimeout(0);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
      if (!status) return fail(new ProxyError(`Proxy ${label} answered CONNECT ${authority} with "${statusLine.slice(0, 80)}"`));
      // Any 2xx opens the tunnel (RFC 9110, 9.3.6).
      if (!status[1].startsWith('2')) return fail(tunnelRefused(label, authority, Number(status[1]), status[2]));
      socket.pause();
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
    if (authorization) lines.push(`Proxy-Authorization: ${authorization}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/**
 * An https agent whose connections are tunnels through one proxy. Node's agent asks for a
 * connection with a callback, so the tunnel opens asynchronously; keep-alive reuses tunnels.
 */
export class TunnelAgent extends HttpsAgent {
  private readonly hop: ProxyHop;

  constructor(hop: ProxyHop, options: AgentOptions) {
    super(options);
    this.hop = hop;
  }

  override createConnection(options: RequestOptions, done?: (err: Error | null, stream: Duplex) => void): undefined {
    if (!done) throw new Error('TunnelAgent opens connections asynchronously: Node passes a callback');
    const host = String(options.host ?? 'localhost').replace(/^\[|\]$/g, '');
    const port = Number(options.port ?? 443);
    openTunnel(this.hop, host, port).then(
      (tunnel) => {
        const tlsOptions = options as ConnectionOptions;
        done(null, tlsConnect({ ...tlsOptions, socket: tunnel, servername: tlsOptions.servername || (isIp(host) ? undefined : host) }));
      },
      (err: Error) => done(err, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/**
 * An http agent for http targets behind a proxy: each connection goes to the proxy, and each
 * request names the whole URL (absolute form) for the proxy to forward. The request itself is
 * an ordinary one to the target, so a host that proxies requests on its own (VS Code's proxy
 * support) sees the right URL too.
 */
export class ForwardAgent extends HttpAgent {
  private readonly hop: ProxyHop;

  constructor(hop: ProxyHop, options: HttpAgentOptions) {
    super(options);
    this.hop = hop;
  }

  /** Called by Node's ClientRequest before its head is written: the path becomes the absolute URL. */
  addRequest(req: ClientRequest, options: RequestOptions): void {
    const host = String(options.host ?? 'localhost');
    const authority = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    const port = options.port && Number(options.port) !== 80 ? `:${options.port}` : '';
    if (!/^https?:\/\//.test(req.path)) req.path = `http://${authority}${port}${req.path}`;
    const { authorization } = this.hop;
    if (authorization && !req.hasHeader('proxy-authorization')) req.setHeader('proxy-authorization', authorization);
    (HttpAgent.prototype as unknown as { addRequest: (r: ClientRequest, o: RequestOptions) => void }).addRequest.call(this, req, options);
  }

  override createConnection(): Duplex {
    return connectToProxy(this.hop.proxy, this.hop.tls);
  }
}
