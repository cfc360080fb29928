import { heldParents } from './heldParents';
import { linkedWorktreeLayout } from './linkedWorktree';
import { daemonSocketPaths } from './daemonSockets';
import { maxScannedEntries, protectedLayout } from './protectedLayout';
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
/**
 * Most folders the walk could not reach that are held read-only one by one; past that the
 * whole workspace folder is read-only for the run (each is a bind, and binds cost time).
 */
export const maxUnscannedHeld = 256;
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
  const scannedAt = Date.now();
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
    heldParents: [],
    notes: [],
    scannedDirs: [],
    scannedAt,
  };
  for (const folder of opts.folders) {
    const p = await protectedLayout(folder);
    layout.readOnly.push(...p.readOnly);
    layout.missing.push(...p.missing);
    layout.mustNotAppear.push(...p.mustNotAppear);
    layout.gitDirs.push(...p.gitDirs);
    layout.scannedDirs.push(...p.scanned);
    failClosed(layout, folder, p.unscanned);
    const linked = await linkedWorktreeLayout(folder);
    if (linked) {
      layout.writable.push(...linked.writable);
      layout.readOnly.push(...linked.readOnly);
    }
  }
  const held = [...layout.readOnly, ...layout.missing.map((m) => m.path)];
  layout.heldParents = heldParents(layout.writable, held);
  return layout;
}

/**
 * Where the walk ran out of budget, protected paths may be anywhere: the folders it did not
 * reach are read-only for the run, or, when there are too many of them to bind, the whole
 * workspace folder is. Either way the run is told why.
 */
function failClosed(layout: SandboxLayout, folder: string, unscanned: string[]): void {
  if (unscanned.length === 0) return;
  const why =
    `Keel looks through at most ${maxScannedEntries.toLocaleString('en-US')} entries of a workspace folder for protected paths (.git, .vscode, rules files) before each command, ` +
    `and ${folder} has more (or folders Keel may not read)`;
  if (unscanned.length <= maxUnscannedHeld) {
    layout.readOnly.push(...unscanned);
    const shown = unscanned.slice(0, 5).join(', ');
    const more = unscanned.length > 5 ? ` and ${unscanned.length - 5} more` : '';
    layout.notes.push(`${why}, so the ${unscanned.length} folder${unscanned.length === 1 ? '' : 's'} it could not look into (${shown}${more}) were read-only for this command.`);
    return;
  }
  layout.writable = layout.writable.filter((w) => w !== folder);
  layout.notes.push(
    `${why}, and ${unscanned.length.toLocaleString('en-US')} folders it could not look into, so the whole folder was read-only for this command: nothing in it could be written. ` +
      'Removing what fills it (generated files, for example) makes it writable again.',
  );
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
