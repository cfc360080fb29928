import { childEnv, noExtraEnv } from '../env/childEnv';
import type { ChildEnvPolicy } from '../env/childEnv';
import { sha256 } from '../sha256';
import type { McpServerConfig } from './mcpConfig';

/**
 * What a server process gets: the allow-listed part of the host's environment (the same
 * list commands get, never the whole of it, which holds Keel's API keys), then its
 * configured env.
 */
export function serverEnv(configured: Record<string, string>, host: Record<string, string | undefined>, policy: ChildEnvPolicy = noExtraEnv): Record<string, string> {
  return { ...childEnv(host, policy), ...configured };
}

/**
 * Identifies what a server runs or reaches: a workspace server whose command, args, env, cwd
 * or url changed is a different server to approve.
 */
export function serverFingerprint(s: McpServerConfig): string {
  const what =
    s.type === 'stdio'
      ? { type: s.type, command: s.command, args: s.args, env: sorted(s.env), cwd: s.cwd ?? null }
      : { type: s.type, url: s.url, headers: sorted(s.headers), ...(s.oauth ? { oauth: s.oauth } : {}) };
  return sha256(JSON.stringify(what));
}

function sorted(r: Record<string, string>): [string, string][] {
  return Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One line per fact the person should see before approving a server (env values stay hidden). */
export function describeServer(s: McpServerConfig): string[] {
  if (s.type !== 'stdio') {
    const lines = [`${s.type === 'sse' ? 'SSE' : 'HTTP'} ${s.url}`];
    const keys = Object.keys(s.headers);
    if (keys.length) lines.push(`headers: ${keys.join(', ')}`);
    return lines;
  }
  const lines = [`command: ${[s.command, ...s.args].map(quote).join(' ')}`];
  const keys = Object.keys(s.env);
  lines.push(keys.length ? `env: ${keys.join(', ')}` : 'env: (none besides PATH, HOME and the like)');
  if (s.cwd) lines.push(`cwd: ${s.cwd}`);
  return lines;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}
