import { sha256 } from '../sha256';
import type { McpServerConfig } from './mcpConfig';

/**
 * What a server process inherits from the host besides its configured env: enough to find
 * programs and a home, never the host's whole environment (which holds Keel's API keys).
 */
const basics = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ',
  // Windows needs these to start most programs at all.
  'Path', 'PATHEXT', 'SystemRoot', 'SYSTEMROOT', 'windir', 'ComSpec', 'COMSPEC', 'TEMP', 'TMP',
  'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'HOMEDRIVE', 'HOMEPATH', 'ProgramFiles', 'ProgramData',
];

export function serverEnv(configured: Record<string, string>, host: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of basics) {
    const value = host[key];
    // Exported shell functions (`() {...}`) are a known injection path; sudo drops them too.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...configured };
}

/**
 * Identifies what a server runs or reaches: a workspace server whose command, args, env, cwd
 * or url changed is a different server to approve.
 */
export function serverFingerprint(s: McpServerConfig): string {
  const what =
    s.type === 'stdio'
      ? { type: s.type, command: s.command, args: s.args, env: sorted(s.env), cwd: s.cwd ?? null }
      : { type: s.type, url: s.url, headers: sorted(s.headers) };
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
