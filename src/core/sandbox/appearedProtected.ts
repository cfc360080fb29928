import type { Stats } from 'node:fs';
import { lstatSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { matchesProtectedPattern } from '../workspace/protectedPaths';
import { approvedSince } from './approvedChanges';
import { isGone } from '../goneErrors';
import { readFolder } from './pathPresence';
import { isPlaceholder } from './placeholders';
import { maxScannedEntries, mayBeProtected, skippedFolders } from './protectedLayout';
import type { SandboxLayout } from './sandboxTypes';

/**
 * File-system times come from the kernel's coarse clock, which may lag the one Node reads by a
 * tick (at most 10 ms): a change made just after the run started may carry a time a little before it.
 */
const clockSlackMs = 20;

/**
 * After a run: protected paths that appeared where nothing could hold them beforehand (a new
 * `pkg/.vscode`, `sub/AGENTS.md`, `x.code-workspace`) are moved aside, nothing deleted, and
 * said. Only folders whose change time moved since the layout's walk are read again (a change
 * time cannot be set by the command), plus the folders that are new; an entry is the run's
 * when its own change time is within the run. Git repositories that appeared are left to the
 * new-repositories note. Returns one sentence per path moved, and one when the recheck itself
 * ran out of budget.
 */
export async function undoAppeared(layout: SandboxLayout, runStart: number): Promise<string[]> {
  const known = new Set([...layout.readOnly, ...layout.missing.map((m) => m.path), ...layout.gitDirs, ...layout.heldParents]);
  const scanned = new Set(layout.scannedDirs);
  const queue = layout.scannedDirs.filter((dir) => changedSince(dir, layout.scannedAt));
  const said: string[] = [];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    if (seen >= maxScannedEntries) {
      said.push(`The command made more than ${maxScannedEntries.toLocaleString('en-US')} entries; Keel did not check ${queue.length - i} of the folders it changed for protected paths it created (${queue.slice(i, i + 3).join(', ')}…): the person should review them.`);
      break;
    }
    const dir = queue[i];
    const root = layout.patternRoots.find((r) => dir === r || dir.startsWith(`${r}/`));
    if (!root) continue;
    const entries = await readFolder(dir);
    if (entries === 'gone') continue;
    if (entries === 'denied') {
      said.push(`The command made ${dir} unreadable, so Keel could not check it for protected paths the command created: the person should review it.`);
      continue;
    }
    seen += entries.length + 1;
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (known.has(path) || isPlaceholder(path)) continue;
      if (entry.name === '.git' && entry.isDirectory()) continue;
      if (mayBeProtected(entry.name) && matchesProtectedPattern(path.slice(root.length + 1))) {
        if (changedSince(path, runStart) && !approvedSince(path, runStart)) said.push(await moveAside(path));
        continue;
      }
      if (entry.isDirectory() && !scanned.has(path) && !skippedFolders.has(entry.name)) queue.push(path);
    }
  }
  return said;
}

function changedSince(path: string, since: number): boolean {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (err) {
    if (isGone(err)) return false;
    throw err;
  }
  return info.ctimeMs >= since - clockSlackMs;
}

async function moveAside(path: string): Promise<string> {
  const aside = `${path}.keel-moved-${Date.now()}`;
  await rename(path, aside);
  return `The command created the protected path ${path}, which needs the person's approval; Keel moved it to ${aside} (nothing was deleted).`;
}
