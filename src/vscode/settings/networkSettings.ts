import * as vscode from 'vscode';
import { configureNetwork, networkSettingsFromEnv, splitNoProxy } from '../../core/net';
import type { NetworkSettings } from '../../core/net';
import type { LogFn } from '../../protocol/log';
import { errorMessage } from '../../core/errors';

/**
 * A setting as the person set it for themselves (user settings, else the default). A workspace
 * could otherwise send Keel's traffic through a proxy of its choosing or turn certificate checks
 * off, which is widening, not narrowing.
 */
function personal<T>(section: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const seen = section.inspect<T>(key);
  return seen?.globalValue ?? seen?.defaultValue;
}

/**
 * VS Code's network settings as Keel's: `http.proxy` (else the environment's HTTPS_PROXY and
 * HTTP_PROXY, as VS Code itself falls back), `http.proxyAuthorization`, `http.noProxy` with
 * NO_PROXY, `http.proxyStrictSSL`,
 * `http.systemCertificates`, and NODE_EXTRA_CA_CERTS. `http.proxySupport: off` means the person
 * wants extensions to connect directly.
 */
export function vscodeNetworkSettings(env: Record<string, string | undefined>): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const fromEnv = networkSettingsFromEnv(env);
  const caFile = env.NODE_EXTRA_CA_CERTS?.trim();
  const tls = {
    strictSSL: personal<boolean>(http, 'proxyStrictSSL') ?? true,
    caFiles: caFile ? [caFile] : [],
    systemCertificates: personal<boolean>(http, 'systemCertificates') ?? true,
  };
  if (personal<string>(http, 'proxySupport') === 'off') return { noProxy: [], ...tls, source: 'vscode' };
  const proxy = personal<string>(http, 'proxy')?.trim();
  const authorization = personal<string | null>(http, 'proxyAuthorization')?.trim();
  const noProxy = [...(personal<string[]>(http, 'noProxy') ?? []).flatMap(splitNoProxy), ...fromEnv.noProxy];
  const auth = authorization ? { proxyAuthorization: authorization } : {};
  if (!proxy) return { ...fromEnv, ...auth, noProxy, ...tls };
  return { httpProxy: proxy, httpsProxy: proxy, ...auth, noProxy, ...tls, source: 'vscode' };
}

/** Applies the network settings now and whenever one of `http.*` changes. */
export function followNetworkSettings(log: LogFn): vscode.Disposable {
  const apply = () => {
    const settings = vscodeNetworkSettings(process.env);
    configureNetwork(settings);
    const proxy = settings.httpsProxy ?? settings.httpProxy;
    if (proxy) log('info', `network: requests go through a proxy (${settings.source === 'vscode' ? 'http.proxy' : 'HTTPS_PROXY/HTTP_PROXY'})`);
  };
  try {
    apply();
  } catch (err) {
    log('error', `network settings: ${errorMessage(err)}`);
  }
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration('http')) return;
    try {
      apply();
    } catch (err) {
      log('error', `network settings: ${errorMessage(err)}`);
    }
  });
}
