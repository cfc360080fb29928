import { undoAppeared } from './appearedProtected';
import { recordLinks, restoreLinks } from './heldIdentity';
import type { SandboxLayout } from './sandboxTypes';

export interface ProtectedGuard {
  /** The layout's notes now; after `check()` also what was undone. */
  report: string[];
  /** After the run: puts back protected links the run replaced and moves aside protected paths it created. */
  check(): Promise<void>;
}

/** Started just before a sandboxed run (any backend): what it needs to undo the run's changes to protected paths afterwards. */
export function guardProtected(layout: SandboxLayout): ProtectedGuard {
  const runStart = Date.now();
  const links = recordLinks(layout.readOnly);
  const report = [...layout.notes];
  return {
    report,
    async check() {
      report.push(...(await restoreLinks(links, runStart)), ...(await undoAppeared(layout, runStart)));
    },
  };
}
