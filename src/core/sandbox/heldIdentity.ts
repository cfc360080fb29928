import type { Stats } from 'node:fs';
import { readlinkSync } from 'node:fs';
import { rename, symlink } from 'node:fs/promises';
import { approvedSince } from './approvedChanges';
import { lstatOrGone } from './pathPresence';

/** A protected path that is a symbolic link, as it was before a run. */
export interface HeldLink {
  path: string;
  dev: number;
  ino: number;
  target: string;
}

/**
 * The protected paths that are symbolic links, just before a run. A bind holds folders and
 * files in place (a mount point cannot be renamed, removed or replaced from inside), but a
 * mount over a link lands on the link's target: the link itself is an entry of a writable
 * folder, and a command can replace it. Synchronous on purpose: an lstat is microseconds.
 */
export function recordLinks(paths: readonly string[]): HeldLink[] {
  const out: HeldLink[] = [];
  for (const path of paths) {
    const info = lstatOrGone(path);
    if (info?.isSymbolicLink()) out.push({ path, dev: info.dev, ino: info.ino, target: readlinkSync(path) });
  }
  return out;
}

/**
 * After a run: every recorded link that is no longer the same link is made again to its old
 * target; what the command put in its place is moved aside (nothing is deleted). A change the
 * person approved during the run is left alone. Returns one sentence per link restored, for the
 * command's result and the person.
 */
export async function restoreLinks(before: readonly HeldLink[], runStart: number): Promise<string[]> {
  const said: string[] = [];
  for (const held of before) {
    const now = lstatOrGone(held.path);
    if (now && sameLink(held, now) && readlinkSync(held.path) === held.target) continue;
    if (approvedSince(held.path, runStart)) continue;
    const aside = now ? `${held.path}.keel-moved-${Date.now()}` : undefined;
    if (aside) await rename(held.path, aside);
    await symlink(held.target, held.path);
    const moved = aside ? ` and moved what the command put there to ${aside}` : '';
    said.push(`The command ${now ? 'replaced' : 'removed'} the protected path ${held.path} (a link to ${held.target}); Keel restored the link${moved}.`);
  }
  return said;
}

function sameLink(held: HeldLink, now: Stats): boolean {
  return now.isSymbolicLink() && now.dev === held.dev && now.ino === held.ino;
}
