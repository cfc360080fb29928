import type { Stats } from 'node:fs';
import { lstatSync, readlinkSync } from 'node:fs';
import { rename, symlink } from 'node:fs/promises';
import { isGone } from './pathPresence';

/** What a held path was before a run: which file it is (device and inode), and a link's target. */
export interface HeldIdentity {
  path: string;
  dev: number;
  ino: number;
  kind: 'dir' | 'file' | 'link';
  target?: string;
}

/**
 * Records which file each held path is, just before a run (not when the layout was computed:
 * the person may have changed one since). Paths that are gone are left out. Synchronous on
 * purpose: one lstat is microseconds, a round trip through the thread pool per path is not.
 */
export function recordIdentities(paths: readonly string[]): HeldIdentity[] {
  const out: HeldIdentity[] = [];
  for (const path of paths) {
    const info = lstatOrGone(path);
    if (!info) continue;
    const kind = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : 'file';
    out.push({ path, dev: info.dev, ino: info.ino, kind, target: kind === 'link' ? readlinkSync(path) : undefined });
  }
  return out;
}

/**
 * After a run: every held path that is no longer the same file is put back where Keel can.
 * The binds make this impossible for folders and files; a protected path that is a symbolic
 * link is the case they cannot hold (a mount lands on the link's target, and the link itself can
 * be replaced). Whatever the command put in its place is moved aside (nothing is deleted) and a
 * link is made again to its old target. Returns one sentence per change, for the command's
 * result and the person.
 */
export async function undoChanged(before: readonly HeldIdentity[]): Promise<string[]> {
  const said: string[] = [];
  for (const held of before) {
    const now = lstatOrGone(held.path);
    if (now && sameFile(held, now) && (held.kind !== 'link' || readlinkSync(held.path) === held.target)) continue;
    const aside = now ? `${held.path}.keel-moved-${Date.now()}` : undefined;
    if (aside) await rename(held.path, aside);
    if (held.kind === 'link' && held.target !== undefined) {
      await symlink(held.target, held.path);
      said.push(`The protected path ${held.path} (a link to ${held.target}) was ${now ? 'replaced' : 'removed'} by the command; Keel restored the link${aside ? ` and moved what the command put there to ${aside}` : ''}.`);
    } else {
      said.push(
        `The protected path ${held.path} was ${now ? 'replaced' : 'removed'} by the command although it was held read-only; ` +
          `${aside ? `Keel moved what the command put there to ${aside}, and ` : ''}the original could not be put back: the person must check it.`,
      );
    }
  }
  return said;
}

function sameFile(held: HeldIdentity, now: Stats): boolean {
  const kind = now.isSymbolicLink() ? 'link' : now.isDirectory() ? 'dir' : 'file';
  return now.dev === held.dev && now.ino === held.ino && kind === held.kind;
}

function lstatOrGone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
}
