import * as vscode from 'vscode';
import type { LogFn } from '../../protocol/log';

/**
 * Opens a server's authorization page in the person's browser (only ever after they clicked
 * "Sign in"). The page sends the browser back to Keel's loopback listener, which
 * asExternalUri made reachable from where the browser runs (code-server, remote windows).
 */
export async function openSignInPage(server: string, url: URL, log: LogFn): Promise<void> {
  log('info', `mcp: opening the sign-in page of "${server}" (${url.origin})`);
  // Given as the string it is: a vscode.Uri would encode the query again, and the server would
  // get a mangled redirect_uri (VS Code's window service takes the string as it comes).
  const opened = await vscode.env.openExternal(url.href as unknown as vscode.Uri);
  if (!opened) throw new Error(vscode.l10n.t('the browser could not be opened'));
}

/**
 * The loopback redirect URI as the browser reaches it: VS Code forwards the port where the
 * browser is elsewhere (code-server, remote windows) and returns the URI to use there.
 */
export async function reachableRedirect(loopback: string, log: LogFn): Promise<string> {
  const local = vscode.Uri.parse(loopback);
  let forwarded = await vscode.env.asExternalUri(local);
  // A port-forwarding proxy (code-server's /proxy/<port>/) may come back without the path.
  if (!forwarded.path.endsWith(local.path)) forwarded = forwarded.with({ path: `${forwarded.path.replace(/\/$/, '')}${local.path}` });
  const external = forwarded.toString(true);
  log('info', `mcp: the sign-in redirect is ${external}${external === loopback ? '' : ` (for ${loopback})`}`);
  return external;
}
