import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { PROTECTED_PATH_PATTERNS, matchesProtectedPattern } from '../workspace/protectedPaths';
import { isPlaceholder } from './placeholders';
import type { LayoutPath } from './sandboxTypes';
import { isGone } from '../goneErrors';
import { pathPresent } from './pathPresence';

/** Most folder entries looked at per workspace folder when finding nested protected paths. */
const maxEntries = 50_000;
/** Folders that hold other people's code or build output, not the person's settings. */
export const skippedFolders: ReadonlySet<string> = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'target', 'dist', 'out', 'build', '.cache', '.next']);

/**
 * Inside a `.git` folder: what configures or runs code, read-only; the rest (objects, refs,
 * logs, index, HEAD, COMMIT_EDITMSG and the lock files beside them) stays writable so that
 * `git add` and `git commit` work. The folder itself must stay writable for those lock files.
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
 * The protected paths of one workspace folder as the sandbox needs them: those that exist
 * (at any depth, within a bounded walk), the root-level ones that do not exist yet, and the
 * git internals. Protected paths missing in subfolders are left to the static checks.
 */
export async function protectedLayout(folder: string): Promise<ProtectedLayout> {
  const out: ProtectedLayout = { gitDirs: [], readOnly: [], missing: [], mustNotAppear: [] };
  for (const name of rootProtectedNames) {
    const path = join(folder, name.path);
    // A placeholder still lingering from an earlier run stands for a missing path, not a real one.
    if (isPlaceholder(path) || !(await pathPresent(path))) out.missing.push({ path, kind: name.kind });
  }
  let budget = maxEntries;
  const queue = [folder];
  while (queue.length > 0 && budget > 0) {
    const dir = queue.shift() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isGone(err)) continue;
      throw err;
    }
    for (const entry of entries) {
      if (--budget <= 0) break;
      const path = join(dir, entry.name);
      if (isPlaceholder(path)) continue;
      const rel = relative(folder, path).split(sep).join('/');
      if (entry.name === '.git' && entry.isDirectory()) {
        await gitLayout(path, out);
        continue;
      }
      if (matchesProtectedPattern(rel)) {
        out.readOnly.push(path);
        continue;
      }
      if (entry.isDirectory() && !skippedFolders.has(entry.name)) queue.push(path);
    }
  }
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
