import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, sep } from 'node:path';

/**
 * What a sandboxed program needs to see under /tmp, which the sandbox replaces with an empty
 * one: the Node that runs Keel, the PATH's folders, and paths the caller names (an MCP server's
 * script). A project checked out under /tmp runs its tools from there. A path inside a
 * `node_modules` brings the whole `node_modules` (its `.bin` entries are links into it), read-only.
 */
export function tmpRuntimePaths(opts: { pathVar?: string; execPath?: string; extra?: readonly string[] } = {}): string[] {
  const execPath = opts.execPath ?? process.execPath;
  const candidates = [dirname(execPath), ...(opts.pathVar ?? process.env.PATH ?? '').split(delimiter), ...(opts.extra ?? [])];
  const out = new Set<string>();
  for (const raw of candidates) {
    if (!raw || !isAbsolute(raw) || !existsSync(raw)) continue;
    for (const path of new Set([raw, realpathSync(raw)])) {
      if (!path.startsWith(`${sep}tmp${sep}`)) continue;
      const modules = path.indexOf(`${sep}node_modules${sep}`);
      out.add(modules >= 0 ? path.slice(0, modules + `${sep}node_modules`.length) : path);
    }
  }
  // A path inside another one on the list is already visible.
  const sorted = [...out].sort();
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(`${q}${sep}`)));
}
