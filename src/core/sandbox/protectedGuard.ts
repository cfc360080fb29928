import { dirname } from 'node:path';
import { undoAppeared } from './appearedProtected';
import { recordLinks, restoreLinks } from './heldIdentity';
import { restoreFolders, watchFolders } from './heldFolders';
import type { SandboxLayout } from './sandboxTypes';

export interface ProtectedGuard {
  /** The layout's notes now; after `check()` also what was undone. */
  report: string[];
  /**
   * The folders holding protected paths that the sandbox must hold in place by itself (a mount):
   * all of them unless watched, else those the guard could not watch, and those holding a
   * protected link (a folder with no mount point inside could be removed, and a removed folder cannot be put back).
   */
  mustHold: string[];
  /** After the run: puts back protected links the run replaced, folders it moved, and moves aside protected paths it created. */
  check(): Promise<void>;
}

/**
 * Started just before a sandboxed run (any backend): what it needs to undo the run's changes to
 * protected paths afterwards. `watchParents`: the folders holding protected paths are watched and
 * put back after the run (bubblewrap, short runs) instead of being held for the whole run.
 */
export function guardProtected(layout: SandboxLayout, opts: { watchParents: boolean } = { watchParents: false }): ProtectedGuard {
  const runStart = Date.now();
  const links = recordLinks(layout.readOnly);
  const report = [...layout.notes];
  if (!opts.watchParents) {
    return {
      report,
      mustHold: layout.heldParents,
      async check() {
        report.push(...(await restoreLinks(links, runStart)), ...(await undoAppeared(layout, runStart)));
      },
    };
  }
  const linkHolders = new Set<string>();
  for (const link of links) for (let dir = dirname(link.path); dir !== dirname(dir); dir = dirname(dir)) linkHolders.add(dir);
  const { watched, unwatched } = watchFolders(layout.heldParents.filter((p) => !linkHolders.has(p)));
  return {
    report,
    mustHold: [...layout.heldParents.filter((p) => linkHolders.has(p)), ...unwatched],
    async check() {
      // Folders first: a link or an appeared path is only where it should be once they are back.
      report.push(...restoreFolders(watched, runStart), ...(await restoreLinks(links, runStart)), ...(await undoAppeared(layout, runStart)));
    },
  };
}
