import { homedir } from 'node:os';

/** One server as the person configured it, after variable expansion. */
export type McpServerConfig =
  | { name: string; origin: McpOrigin; type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { name: string; origin: McpOrigin; type: 'http' | 'sse'; url: string; headers: Record<string, string>; oauth?: McpOAuthConfig };

/**
 * How Keel signs in to an HTTP server, from the person's own config only: a client registered
 * with the authorization server beforehand (`clientId`, `clientSecret`), the scopes to ask for
 * when the server names none, and a Client ID Metadata Document URL the person hosts.
 */
export interface McpOAuthConfig {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  clientMetadataUrl?: string;
}

/**
 * Where a server was configured. `workspace` servers (the workspace's `.vscode/mcp.json`) need
 * a trusted workspace and the person's approval; `user` and `cli` ones were set up by the person.
 */
export type McpOrigin = 'user' | 'workspace' | 'cli';

export interface McpConfigProblem {
  server?: string;
  message: string;
}

export interface ParsedMcpConfig {
  servers: McpServerConfig[];
  /** Bad entries, each naming the server and the field; the other servers are kept. */
  problems: McpConfigProblem[];
}

export interface ExpandVars {
  workspaceFolder: string;
  env: Record<string, string | undefined>;
}

const serverName = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads VS Code's mcp.json shape: `{ servers: { name: { type: "stdio", command, args, env, cwd }
 * | { type: "http", url, headers } } }` (`inputs` and other top-level keys are not Keel's and
 * are ignored). `${workspaceFolder}`, `${userHome}` and `${env:NAME}` are expanded in every string.
 */
export function parseMcpConfig(raw: unknown, origin: McpOrigin, vars: ExpandVars, source: string): ParsedMcpConfig {
  const problems: McpConfigProblem[] = [];
  const servers: McpServerConfig[] = [];
  if (!isRecord(raw)) return { servers, problems: [{ message: `${source}: expected an object with "servers", got ${kind(raw)}` }] };
  if (raw.servers === undefined) return { servers, problems };
  if (!isRecord(raw.servers)) return { servers, problems: [{ message: `${source}: "servers" must be an object (got ${kind(raw.servers)})` }] };
  for (const [name, entry] of Object.entries(raw.servers)) {
    const fail = (message: string) => problems.push({ server: name, message: `${source}: MCP server "${name}": ${message}` });
    if (!serverName.test(name)) {
      fail('the name may use only letters, digits, _ . -');
      continue;
    }
    try {
      const server = parseEntry(name, entry, origin, vars);
      if (server) servers.push(server);
    } catch (err) {
      if (err instanceof EntryError) fail(err.message);
      else throw err;
    }
  }
  return { servers, problems };
}

class EntryError extends Error {}

function parseEntry(name: string, entry: unknown, origin: McpOrigin, vars: ExpandVars): McpServerConfig | undefined {
  if (!isRecord(entry)) throw new EntryError(`expected an object (got ${kind(entry)})`);
  const x = (field: string, value: string) => expand(value, field, vars, origin);
  let type = entry.type;
  if (type === undefined) type = typeof entry.command === 'string' ? 'stdio' : typeof entry.url === 'string' ? 'http' : undefined;
  if (type === 'stdio') {
    allowOnly(entry, ['type', 'command', 'args', 'env', 'cwd', 'envFile', 'dev']);
    if (entry.envFile !== undefined) throw new EntryError('"envFile" is not supported by Keel; put the variables in "env"');
    const command = str(entry.command, 'command');
    if (!command.trim()) throw new EntryError('"command" is empty');
    const args = strArray(entry.args, 'args').map((a, i) => x(`args[${i}]`, a));
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(strRecord(entry.env, 'env', true))) env[k] = v === null ? '' : x(`env.${k}`, v);
    const server: McpServerConfig = { name, origin, type: 'stdio', command: x('command', command), args, env };
    if (entry.cwd !== undefined) server.cwd = x('cwd', str(entry.cwd, 'cwd'));
    return server;
  }
  if (type === 'http' || type === 'sse') {
    allowOnly(entry, ['type', 'url', 'headers', 'oauth', 'dev']);
    const url = x('url', str(entry.url, 'url'));
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new EntryError(`"url" is not a valid URL ("${url}")`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EntryError(`"url" must be http or https (got "${parsed.protocol}")`);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(strRecord(entry.headers, 'headers', false))) headers[k] = x(`headers.${k}`, v ?? '');
    const oauth = entry.oauth === undefined ? undefined : parseOAuth(entry.oauth, origin, x);
    return { name, origin, type, url, headers, ...(oauth ? { oauth } : {}) };
  }
  if (type === undefined) throw new EntryError('needs "command" (a stdio server) or "url" (an http server)');
  throw new EntryError(`"type" must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`);
}

/**
 * `oauth: { clientId?, clientSecret?, scopes?, clientMetadataUrl? }`. A workspace's config may
 * not give one: a client secret or a chosen client is the person's to hand out, never the
 * workspace's (a workspace server signs in with a client Keel registers, after approval).
 */
function parseOAuth(v: unknown, origin: McpOrigin, x: (field: string, value: string) => string): McpOAuthConfig {
  if (origin === 'workspace') {
    throw new EntryError('"oauth" is read only from your own config (keel.mcpServers in your user settings, or --mcp-config), never from a workspace\'s');
  }
  if (!isRecord(v)) throw new EntryError(`"oauth" must be an object (got ${kind(v)})`);
  const extra = Object.keys(v).filter((k) => !['clientId', 'clientSecret', 'scopes', 'clientMetadataUrl'].includes(k));
  if (extra.length) throw new EntryError(`unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"oauth.${k}"`).join(', ')}`);
  const out: McpOAuthConfig = {};
  if (v.clientId !== undefined) out.clientId = x('oauth.clientId', str(v.clientId, 'oauth.clientId'));
  if (v.clientSecret !== undefined) {
    if (out.clientId === undefined) throw new EntryError('"oauth.clientSecret" needs "oauth.clientId"');
    out.clientSecret = x('oauth.clientSecret', str(v.clientSecret, 'oauth.clientSecret'));
  }
  if (v.scopes !== undefined) out.scopes = strArray(v.scopes, 'oauth.scopes');
  if (v.clientMetadataUrl !== undefined) {
    const url = str(v.clientMetadataUrl, 'oauth.clientMetadataUrl');
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.protocol !== 'https:' || parsed.pathname === '/') throw new EntryError(`"oauth.clientMetadataUrl" must be an https URL with a path (got "${url}")`);
    out.clientMetadataUrl = url;
  }
  return out;
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}`; anything else is an error naming
 * the field. `${env:NAME}` is the person's environment (tokens, keys): a workspace's config
 * may not hand it to a server or URL the workspace chose, so there it is an error too.
 */
export function expand(value: string, field: string, vars: ExpandVars, origin: McpOrigin = 'user'): string {
  return value.replace(/\$\{([^}]*)\}/g, (_m, name: string) => {
    if (name === 'workspaceFolder') return vars.workspaceFolder;
    if (name === 'userHome') return homedir();
    if (name.startsWith('env:') && origin === 'workspace') {
      throw new EntryError(
        `"${field}": \${${name}} is not expanded from a workspace's config, so your environment (tokens, keys) never goes to a server the workspace chose. ` +
          'Define this server in your user settings (keel.mcpServers) to pass it your variables.',
      );
    }
    if (name.startsWith('env:')) return vars.env[name.slice(4)] ?? '';
    if (name.startsWith('input:')) throw new EntryError(`"${field}": \${${name}} prompts are not supported by Keel; write the value or use \${env:NAME}`);
    throw new EntryError(`"${field}": unknown variable \${${name}} (Keel knows \${workspaceFolder}, \${userHome}, \${env:NAME})`);
  });
}

function allowOnly(entry: Record<string, unknown>, keys: string[]): void {
  const extra = Object.keys(entry).filter((k) => !keys.includes(k));
  if (extra.length) throw new EntryError(`unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')} for a ${String(entry.type ?? 'server')} server`);
}

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new EntryError(`"${field}" must be a string (got ${kind(v)})`);
  return v;
}

function strArray(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EntryError(`"${field}" must be an array of strings (got ${kind(v)})`);
  return v.map((item, i) => str(item, `${field}[${i}]`));
}

function strRecord(v: unknown, field: string, allowNull: boolean): Record<string, string | null> {
  if (v === undefined) return {};
  if (!isRecord(v)) throw new EntryError(`"${field}" must be an object of strings (got ${kind(v)})`);
  const out: Record<string, string | null> = {};
  for (const [k, item] of Object.entries(v)) {
    if (typeof item === 'number' || typeof item === 'boolean') out[k] = String(item);
    else if (item === null && allowNull) out[k] = null;
    else out[k] = str(item, `${field}.${k}`);
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}
