import { linkedWorktreeLayout } from './linkedWorktree';
import { protectedLayout } from './protectedLayout';
import { daemonSocketPaths } from './daemonSockets';
import { secretPaths } from './secretPaths';
import type { LayoutPath, SandboxLayout } from './sandboxTypes';

export interface LayoutOptions {
  /** Workspace folders (real paths). */
  folders: string[];
  home: string;
  keelHome: string;
  /** Writable besides the folders, minus the protected paths found in the folders (MCP servers' caches). */
  extraWritable?: string[];
  uid?: number;
  /** $XDG_RUNTIME_DIR: the session's sockets, hidden. */
  runtimeDir?: string;
}

/** How long a computed layout is reused: a walk per command would cost more than the sandbox itself. */
const reuseMs = 2_000;
const cache = new Map<string, { at: number; layout: Promise<SandboxLayout> }>();

/** The layout for these folders; recomputed after a short while so new protected paths are seen. */
export function sandboxLayout(opts: LayoutOptions): Promise<SandboxLayout> {
  const key = JSON.stringify(opts);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < reuseMs) return hit.layout;
  const layout = computeLayout(opts);
  cache.set(key, { at: Date.now(), layout });
  layout.catch(() => cache.delete(key));
  return layout;
}

/** Forgets computed layouts (a caller that just changed protected paths, tests). */
export function forgetSandboxLayouts(): void {
  cache.clear();
}

async function computeLayout(opts: LayoutOptions): Promise<SandboxLayout> {
  const layout: SandboxLayout = {
    writable: [...opts.folders, ...(opts.extraWritable ?? [])],
    readOnly: [],
    missing: [],
    hidden: hiddenPaths([
      ...(await secretPaths({ home: opts.home, keelHome: opts.keelHome, folders: opts.folders, uid: opts.uid })),
      ...(await daemonSocketPaths({ home: opts.home, runtimeDir: opts.runtimeDir })),
    ]),
    mustNotAppear: [],
    patternRoots: [...opts.folders],
    gitDirs: [],
  };
  for (const folder of opts.folders) {
    const p = await protectedLayout(folder);
    layout.readOnly.push(...p.readOnly);
    layout.missing.push(...p.missing);
    layout.mustNotAppear.push(...p.mustNotAppear);
    layout.gitDirs.push(...p.gitDirs);
    const linked = await linkedWorktreeLayout(folder);
    if (linked) {
      layout.writable.push(...linked.writable);
      layout.readOnly.push(...linked.readOnly);
    }
  }
  return layout;
}

/** Each hidden path once, and none inside a hidden folder (its cover already hides it). */
function hiddenPaths(paths: LayoutPath[]): LayoutPath[] {
  const dirs = paths.filter((p) => p.kind === 'dir').map((p) => p.path);
  const seen = new Set<string>();
  return paths.filter((p) => {
    if (seen.has(p.path) || dirs.some((d) => p.path.startsWith(`${d}/`))) return false;
    seen.add(p.path);
    return true;
  });
}
