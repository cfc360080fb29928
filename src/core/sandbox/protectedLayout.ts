import { join } from 'node:path';
import { compileGlob } from '../workspace/globPattern';
import { PROTECTED_PATH_PATTERNS, matchesProtectedPattern } from '../workspace/protectedPaths';
import { isPlaceholder } from './placeholders';
import type { LayoutPath } from './sandboxTypes';
import { pathPresent, readFolder } from './pathPresence';

/**
 * Most folder entries looked at per workspace folder when finding nested protected paths.
 * Folders the walk has no budget left for are reported as unscanned, never skipped silently.
 */
export const maxScannedEntries = 50_000;
/** Folders that hold other people's code or build output, not the person's settings. */
export const skippedFolders: ReadonlySet<string> = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'target', 'dist', 'out', 'build', '.cache', '.next']);

/**
 * Inside a `.git` folder: what configures or runs code, read-only; the rest (objects, refs,
 * logs, index, HEAD, COMMIT_EDITMSG and the lock files beside them) stays writable so that
 * `git add` and `git commit` work. The folder itself must stay writable for those lock files;
 * it is held in place as the parent of these (see heldParents).
 */
const gitReadOnly = ['config', 'config.worktree', 'hooks', 'info', 'modules', 'worktrees'];
/** Created empty when missing, so nothing can appear there during the run. */
const gitHeld: LayoutPath[] = [
  { path: 'hooks', kind: 'dir' },
  { path: 'info', kind: 'dir' },
];

export interface ProtectedLayout {
  gitDirs: string[];
  readOnly: string[];
  missing: LayoutPath[];
  mustNotAppear: string[];
  /** Folders the walk had no budget left for, or may not read: protected paths may be anywhere below them. */
  unscanned: string[];
  /** Folders the walk looked into (after a run, those changed since are looked at again for protected paths that appeared). */
  scanned: string[];
}

/** The root-level protected names (`.vscode`, `AGENTS.md`, `.github/instructions`...), from the shared list. */
export const rootProtectedNames: readonly LayoutPath[] = (() => {
  const out: LayoutPath[] = [];
  for (const { pattern } of PROTECTED_PATH_PATTERNS) {
    const m = /^\*\*\/([^*?[\]{}]+?)(\/\*\*)?$/.exec(pattern);
    if (!m) continue;
    out.push({ path: m[1], kind: m[2] ? 'dir' : 'file' });
  }
  // `.vscode/mcp.json` is held by `.vscode` already: only the outermost of nested names counts.
  return out.filter((o) => !out.some((other) => other.kind === 'dir' && other !== o && (o.path === other.path || o.path.startsWith(`${other.path}/`)) && (o.path !== other.path || out.indexOf(other) < out.indexOf(o))));
})();

/**
 * The last segment of every protected pattern (`.vscode`, `*.code-workspace`, `rules`...). The walk
 * never enters a protected folder, so an entry it meets can only be protected when its own name
 * matches one of these: the full patterns are tried on those few names alone.
 */
const lastSegments: readonly RegExp[] = PROTECTED_PATH_PATTERNS.map(({ pattern }) => {
  const segments = pattern.replace(/\/\*\*$/, '').split('/');
  return compileGlob(segments[segments.length - 1], { ignoreCase: true });
});

export function mayBeProtected(name: string): boolean {
  return lastSegments.some((re) => re.test(name));
}

/**
 * The protected paths of one workspace folder as the sandbox needs them: those that exist
 * (at any depth, within a bounded walk), the root-level ones that do not exist yet, the git
 * internals, and the folders the walk could not reach. Protected paths missing in subfolders
 * are left to the static checks.
 */
export async function protectedLayout(folder: string, budget = maxScannedEntries): Promise<ProtectedLayout> {
  const out: ProtectedLayout = { gitDirs: [], readOnly: [], missing: [], mustNotAppear: [], unscanned: [], scanned: [] };
  for (const name of rootProtectedNames) {
    const path = join(folder, name.path);
    // A placeholder still lingering from an earlier run stands for a missing path, not a real one.
    if (isPlaceholder(path) || !(await pathPresent(path))) out.missing.push({ path, kind: name.kind });
  }
  let seen = 0;
  // Breadth first: the budget goes to shallow folders, where the person's settings are.
  const queue: Array<{ path: string; rel: string }> = [{ path: folder, rel: '' }];
  let next = 0;
  for (; next < queue.length && seen < budget; next++) {
    const dir = queue[next];
    const entries = await readFolder(dir.path);
    if (entries === 'gone') continue;
    // What Keel may not look into is held like what it had no budget for.
    if (entries === 'denied') {
      out.unscanned.push(dir.path);
      continue;
    }
    // A folder once read is looked at whole: the budget decides only which folders are read.
    // The folder itself counts too, so a million empty folders cannot cost a million reads.
    seen += entries.length + 1;
    out.scanned.push(dir.path);
    for (const entry of entries) {
      const path = `${dir.path}/${entry.name}`;
      const rel = dir.rel === '' ? entry.name : `${dir.rel}/${entry.name}`;
      if (entry.name === '.git' && entry.isDirectory()) {
        if (!isPlaceholder(path)) await gitLayout(path, out);
        continue;
      }
      if (mayBeProtected(entry.name) && matchesProtectedPattern(rel)) {
        if (!isPlaceholder(path)) out.readOnly.push(path);
        continue;
      }
      if (entry.isDirectory() && !skippedFolders.has(entry.name)) queue.push({ path, rel });
    }
  }
  out.unscanned.push(...queue.slice(next).map((d) => d.path));
  return out;
}

async function gitLayout(gitDir: string, out: ProtectedLayout): Promise<void> {
  out.gitDirs.push(gitDir);
  for (const name of gitReadOnly) {
    const path = join(gitDir, name);
    if (await pathPresent(path)) out.readOnly.push(path);
  }
  for (const held of gitHeld) {
    const path = join(gitDir, held.path);
    if (isPlaceholder(path) || !(await pathPresent(path))) out.missing.push({ path, kind: held.kind });
  }
  // A placeholder would break git (it reads the file), so a new one is removed after the run.
  const commondir = join(gitDir, 'commondir');
  if (!(await pathPresent(commondir))) out.mustNotAppear.push(commondir);
}
