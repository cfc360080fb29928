import type * as vscode from 'vscode';
import { parseOAuthRecord } from '../../core/mcp';
import type { McpOAuthRecord, McpOAuthStore } from '../../core/mcp';

const PREFIX = 'keel.mcpOAuth.';

/**
 * MCP sign-ins in VS Code's SecretStorage, one secret per server (its origin, name and URL,
 * see oauthKey): the registered client and the tokens. Never in settings, logs or sessions.
 */
export class McpSecretStore implements McpOAuthStore {
  constructor(private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>) {}

  async read(key: string): Promise<McpOAuthRecord> {
    const text = await this.secrets.get(PREFIX + key);
    if (text === undefined) return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`the stored sign-in for ${key} is not valid JSON (${(err as Error).message}); sign out and in again`);
    }
    return parseOAuthRecord(value, 'SecretStorage', key);
  }

  async write(key: string, record: McpOAuthRecord): Promise<void> {
    if (record.client === undefined && record.tokens === undefined) await this.secrets.delete(PREFIX + key);
    else await this.secrets.store(PREFIX + key, JSON.stringify(record));
  }
}
