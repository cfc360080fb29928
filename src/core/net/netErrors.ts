/**
 * Network failures that name their cause: a proxy that refused or failed, a certificate that is
 * not trusted. Each keeps Node's error as its `cause`, so code that looks for ECONNREFUSED and
 * the like down the chain still finds it.
 */
export class ProxyError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ProxyError';
  }
}

export class TlsError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TlsError';
  }
}

const untrustedCodes = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What a failed connection to the proxy itself means, by Node's error code. */
function proxyFailure(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused the connection';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'could not be found (its host name does not resolve)';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'closed the connection';
    case 'ETIMEDOUT':
      return 'did not answer in time';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'cannot be reached from this network';
    default:
      return `failed: ${message}`;
  }
}

export interface FailureScene {
  /** `host:port` of the server Keel wanted. */
  target: string;
  /** The proxy in between, as shown to people (no credentials). */
  proxy?: string;
  /** Where the proxy is set ("HTTPS_PROXY", "http.proxy"), for the hint. */
  proxySetting?: string;
  /** How to add a CA in this host. */
  caHint: string;
}

/**
 * The same failure with a message that says what failed. Errors already named (a ProxyError
 * from the tunnel) and failures that are neither proxy nor TLS come back unchanged.
 */
export function explainNetError(err: unknown, scene: FailureScene): unknown {
  if (!(err instanceof Error) || err instanceof ProxyError || err instanceof TlsError) return err;
  const code = codeOf(err);
  if (code && untrustedCodes.has(code)) {
    const through = scene.proxy ? ` (through proxy ${scene.proxy}, which may re-sign traffic)` : '';
    return new TlsError(`TLS: certificate of ${scene.target} not trusted${through} (${code}); ${scene.caHint}`, { cause: err });
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new TlsError(`TLS: certificate of ${scene.target} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not yet valid'} (${code})`, { cause: err });
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return new TlsError(`TLS: certificate of ${scene.target} is for another host name (${err.message})`, { cause: err });
  }
  if (scene.proxy && code && /^E[A-Z_]+$/.test(code) && code !== 'ABORT_ERR') {
    // Over a proxy, the socket that failed is the one to the proxy.
    const where = scene.proxySetting ? `; check ${scene.proxySetting}` : '';
    return new ProxyError(`Proxy ${scene.proxy} ${proxyFailure(code, err.message)} (on the way to ${scene.target})${where}`, { cause: err });
  }
  return err;
}

/** The ProxyError for a proxy's refusal of CONNECT (a status other than 200). */
export function tunnelRefused(proxy: string, target: string, status: number, statusText: string): ProxyError {
  const hint =
    status === 407 ? '; the proxy wants credentials: put them in the proxy URL (http://user:password@host:port)' : '';
  const error = new ProxyError(`Proxy ${proxy} refused to open a tunnel to ${target}: ${status} ${statusText}`.trim() + hint);
  return Object.assign(error, { statusCode: status });
}
