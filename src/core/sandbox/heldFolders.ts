import type { Stats } from 'node:fs';
import { chmodSync, closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { approvedCovering } from './approvedChanges';
import { errorCode } from '../errorCode';
import { isGone } from '../goneErrors';
import { lstatOrGone } from './pathPresence';
import { byDepth } from './heldParents';

/** A folder that holds a protected path, opened just before a run. */
export interface WatchedFolder {
  path: string;
  /** Follows the folder wherever a rename takes it, and keeps its inode from being reused. */
  fd: number;
  dev: number;
  ino: number;
}

const openFolder = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Opens each folder that holds a protected path (`.git`, `.github` around `.github/instructions`,
 * `pkg/` around `pkg/.vscode`), without following links, just before a run. A short command gets
 * no mount for these (each costs bubblewrap time): it may rename them, and `restoreFolders` puts
 * them back afterwards. The protected paths themselves stay mounted read-only, and a mount point
 * cannot be renamed or removed, so each stays inside the very folder that held it: putting the
 * folders back puts the protected paths back. Returns what could not be watched (a folder Keel
 * may not open, or reached through a link): those are held by a mount as before. Synchronous on
 * purpose: an open is microseconds.
 */
export function watchFolders(paths: readonly string[]): { watched: WatchedFolder[]; unwatched: string[] } {
  const watched: WatchedFolder[] = [];
  const unwatched: string[] = [];
  for (const path of paths) {
    let fd: number;
    try {
      fd = openSync(path, openFolder);
    } catch (err) {
      if (!isGone(err) && errorCode(err) !== 'ELOOP' && errorCode(err) !== 'EPERM') {
        unwatchFolders(watched);
        throw err;
      }
      unwatched.push(path);
      continue;
    }
    const info = fstatSync(fd);
    // A link earlier in the path would have led somewhere else: that folder is not the one to hold.
    if (currentPath(fd) !== path) {
      closeSync(fd);
      unwatched.push(path);
      continue;
    }
    watched.push({ path, fd, dev: info.dev, ino: info.ino });
  }
  return { watched, unwatched };
}

/** Closes what `watchFolders` opened, without looking (a run that never started). */
export function unwatchFolders(watched: readonly WatchedFolder[]): void {
  for (const w of watched) closeSync(w.fd);
}

/**
 * After a run: every watched folder that is no longer at its place is put back, shallowest first
 * (a folder's own place may be inside one moved before it). What the command put in its place is
 * moved aside, nothing deleted. A move the person approved during the run (of the folder or one
 * holding it) is left alone. Closes the descriptors. Returns one sentence per folder, for the
 * command's result and the person.
 */
export function restoreFolders(watched: readonly WatchedFolder[], runStart: number): string[] {
  const said: string[] = [];
  try {
    for (const w of [...watched].sort((a, b) => byDepth(a.path, b.path))) {
      if (isSame(w, lstatOrGone(w.path))) continue;
      if (approvedCovering(w.path, runStart)) continue;
      said.push(putBack(w));
    }
  } finally {
    unwatchFolders(watched);
  }
  return said;
}

function putBack(w: WatchedFolder): string {
  const movedFrom = currentPath(w.fd);
  let aside = '';
  if (lstatOrGone(w.path)) {
    aside = `${w.path}.keel-moved-${Date.now()}`;
    const failed = tryRename(w.path, aside);
    if (failed) return `The command replaced ${w.path}, which holds protected paths, and Keel could not move what it put there aside (${failed}): the person should review it before using git or the editor there.`;
    aside = ` and moved what the command put in its place to ${aside}`;
  }
  // Read again: the folder may have been inside what was just moved aside.
  const now = currentPath(w.fd);
  if (!isSame(w, lstatOrGone(now))) {
    return `The command removed ${w.path}, which held protected paths, and Keel could not find it to put it back${aside}: the person should review it.`;
  }
  const failed = tryRename(now, w.path);
  if (failed || !isSame(w, lstatOrGone(w.path))) {
    return `The command moved ${w.path}, which holds protected paths, to ${now}; Keel could not move it back (${failed ?? 'something else took its place'})${aside}: the person should review it.`;
  }
  const where = movedFrom === now ? now : `${movedFrom} (then ${now})`;
  return `The command moved ${w.path}, which holds protected paths, to ${where}; Keel moved it back${aside} (nothing was deleted).`;
}

/**
 * Renames, once more after giving Keel's user write access to both folders when the command took
 * it away (it runs as the same user and may `chmod` the folders it can write). Returns the error, if any.
 */
function tryRename(from: string, to: string): string | undefined {
  try {
    renameSync(from, to);
    return undefined;
  } catch (err) {
    if (errorCode(err) !== 'EACCES' && errorCode(err) !== 'EPERM') return err instanceof Error ? err.message : String(err);
  }
  try {
    // Moving a folder to another folder also writes its own `..` entry.
    for (const dir of new Set([dirname(from), dirname(to), from])) {
      const info = lstatSync(dir);
      if (info.isDirectory()) chmodSync(dir, info.mode | 0o700);
    }
    renameSync(from, to);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Where the opened folder is now, as the kernel names it (` (deleted)` when it is gone). */
function currentPath(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

function isSame(w: WatchedFolder, now: Stats | undefined): boolean {
  return now !== undefined && now.isDirectory() && now.dev === w.dev && now.ino === w.ino;
}
