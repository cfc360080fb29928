import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OAuthClientInformationFullSchema, OAuthClientInformationSchema, OAuthTokensSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What Keel keeps for one OAuth-protected MCP server: its registered client and its tokens. */
export interface McpOAuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

/**
 * Where sign-in state lives (SecretStorage in VS Code, a 0600 file in the CLI), keyed by
 * `oauthKey` (the server's name, where it was configured and its URL).
 */
export interface McpOAuthStore {
  read(key: string): Promise<McpOAuthRecord>;
  write(key: string, record: McpOAuthRecord): Promise<void>;
}

/** A stored record read back: malformed parts are errors naming `where` and the key. */
export function parseOAuthRecord(value: unknown, where: string, key: string): McpOAuthRecord {
  const entry = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const record: McpOAuthRecord = {};
  if (entry.client !== undefined) {
    const full = OAuthClientInformationFullSchema.safeParse(entry.client);
    const client = full.success ? full : OAuthClientInformationSchema.safeParse(entry.client);
    if (!client.success) throw new Error(`${where}: the client for ${key} is malformed; delete that entry to register again`);
    record.client = client.data;
  }
  if (entry.tokens !== undefined) {
    const tokens = OAuthTokensSchema.safeParse(entry.tokens);
    if (!tokens.success) throw new Error(`${where}: the tokens for ${key} are malformed; delete that entry to sign in again`);
    record.tokens = tokens.data;
  }
  return record;
}

/**
 * The CLI's store: one JSON file readable only by its owner (0600), keyed like every store.
 * A file that is not Keel's shape is an error naming the file, never silently replaced.
 */
export class McpOAuthFile implements McpOAuthStore {
  /** Writes one after another: two servers signing in at once must not lose each other's record. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  async read(key: string): Promise<McpOAuthRecord> {
    const all = await this.readAll();
    return all[key] ?? {};
  }

  write(key: string, record: McpOAuthRecord): Promise<void> {
    const next = this.writing.then(() => this.writeNow(key, record));
    // The chain goes on after a failed write; that failure is the caller's, through `next`.
    this.writing = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async writeNow(key: string, record: McpOAuthRecord): Promise<void> {
    const all = await this.readAll();
    if (record.client === undefined && record.tokens === undefined) delete all[key];
    else all[key] = record;
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
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${this.path} must hold an object keyed by MCP server`);
    const out: Record<string, McpOAuthRecord> = {};
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) out[key] = parseOAuthRecord(value, this.path, key);
    return out;
  }
}
