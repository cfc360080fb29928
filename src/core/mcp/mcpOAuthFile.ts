import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OAuthClientInformationFullSchema, OAuthTokensSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What Keel keeps for one OAuth-protected MCP server: its registered client and its tokens. */
export interface McpOAuthRecord {
  client?: OAuthClientInformationFull;
  tokens?: OAuthTokens;
}

/** Where sign-in state lives, keyed by the server's URL (SecretStorage in VS Code, a 0600 file in the CLI). */
export interface McpOAuthStore {
  read(serverUrl: string): Promise<McpOAuthRecord>;
  write(serverUrl: string, record: McpOAuthRecord): Promise<void>;
}

/**
 * The CLI's store: one JSON file readable only by its owner (0600), keyed by server URL.
 * A file that is not Keel's shape is an error naming the file, never silently replaced.
 */
export class McpOAuthFile implements McpOAuthStore {
  constructor(private readonly path: string) {}

  async read(serverUrl: string): Promise<McpOAuthRecord> {
    const all = await this.readAll();
    return all[serverUrl] ?? {};
  }

  async write(serverUrl: string, record: McpOAuthRecord): Promise<void> {
    const all = await this.readAll();
    if (record.client === undefined && record.tokens === undefined) delete all[serverUrl];
    else all[serverUrl] = record;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, this.path);
  }

  private async readAll(): Promise<Record<string, McpOAuthRecord>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`${this.path} is not valid JSON (${(err as Error).message}); fix or delete it to sign in again`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${this.path} must hold an object keyed by server URL`);
    const out: Record<string, McpOAuthRecord> = {};
    for (const [url, value] of Object.entries(data as Record<string, unknown>)) {
      const entry = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      const record: McpOAuthRecord = {};
      if (entry.client !== undefined) {
        const client = OAuthClientInformationFullSchema.safeParse(entry.client);
        if (!client.success) throw new Error(`${this.path}: the client for ${url} is malformed; delete that entry to register again`);
        record.client = client.data;
      }
      if (entry.tokens !== undefined) {
        const tokens = OAuthTokensSchema.safeParse(entry.tokens);
        if (!tokens.success) throw new Error(`${this.path}: the tokens for ${url} are malformed; delete that entry to sign in again`);
        record.tokens = tokens.data;
      }
      out[url] = record;
    }
    return out;
  }
}
