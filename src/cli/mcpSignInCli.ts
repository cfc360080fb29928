import * as l10n from '@vscode/l10n';
import { join } from 'node:path';
import { McpOAuthFile } from '../core/mcp';
import type { McpOAuthHost } from '../core/mcp';
import { keelHome } from '../core/paths';

/**
 * How `keel run` signs in to an HTTP MCP server that asks: it prints the authorization URL on
 * stderr and waits for the browser to come back to its loopback listener. Tokens are kept in
 * `$KEEL_HOME/mcp-oauth.json`, readable only by the person (0600).
 */
export function cliMcpOAuth(env: Record<string, string | undefined>, stderr: (text: string) => void): McpOAuthHost {
  return {
    store: new McpOAuthFile(join(keelHome(env), 'mcp-oauth.json')),
    present: async (server, url) => {
      stderr(`keel: ${l10n.t('MCP server "{0}" needs you to sign in.', server)} ${l10n.t('Open this URL to sign in: {0}', url.href)}\n`);
    },
  };
}
