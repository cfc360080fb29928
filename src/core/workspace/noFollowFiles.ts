import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, symlink, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';

/**
 * Keel's own file writes (the write and edit tools, the journal, undo and restore) into
 * folders a command may be changing at the same moment. A path checked and then written by
 * name can be redirected between the two: a command swaps a checked folder with a link to
 * elsewhere (`renameat2(RENAME_EXCHANGE)`) and the write follows it out of the workspace or
 * into `.vscode/`. Here every folder on the way is opened one component at a time without
 * following links (Linux: `/proc/self/fd/N/name` is `openat(N, name)`), the opened folder's
 * real path is read back from `/proc/self/fd/N` and must be the one that was checked, and the
 * file is written through a descriptor into that folder and renamed in it. A link anywhere
 * on the way, or a folder that moved, refuses the write: nothing is written.
 *
 * Paths given here are real paths (checked by the caller): none of their components is a
 * link, so finding one means someone changed the tree since.
 */

/** Linux only: elsewhere the folder is checked just before it is written by name (a narrower race). */
const procFd = process.platform === 'linux' ? '/proc/self/fd' : undefined;
const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path changed under Keel (a link appeared on the way): nothing was written or read. */
export class RedirectedPathError extends Error {
  readonly code = 'EREDIRECTED';
}

function errorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

function redirected(path: string, what: string): RedirectedPathError {
  return new RedirectedPathError(
    `${path}: ${what} since Keel checked it (another program is moving files there); nothing was written or read. Check the folder and try again.`,
  );
}

export interface NoFollowWriteOptions {
  /** The new file's permission bits from the replaced file's (undefined when there was none); default: kept, or the umask's. */
  mode?: (current: number | undefined) => number | undefined;
}

/**
 * Writes `bytes` to `absPath` atomically (a temporary file in the same folder, renamed over
 * it), creating missing folders; `null` deletes it. Throws RedirectedPathError when a link
 * or a moved folder would take the write elsewhere.
 */
export async function writeFileNoFollow(absPath: string, bytes: Uint8Array | null, opts: NoFollowWriteOptions = {}): Promise<void> {
  const path = resolve(absPath);
  await inFolder(path, bytes !== null, async (at) => {
    const name = at(basename(path));
    if (bytes === null) {
      await unlink(name).catch((err: unknown) => (errorCode(err) === 'ENOENT' ? undefined : Promise.reject(err)));
      return;
    }
    const current = await regularMode(name);
    const temp = at(`.${basename(path)}.keel-${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    try {
      await file.writeFile(bytes);
      const mode = opts.mode ? opts.mode(current) : current;
      if (mode !== undefined) await file.chmod(mode);
    } catch (err) {
      await file.close();
      await unlink(temp);
      throw err;
    }
    await file.close();
    return { commit: () => rename(temp, name), abandon: () => unlink(temp) };
  });
}

/** Replaces `absPath` with a symbolic link to `target` (restoring a link a command removed), the same way. */
export async function writeLinkNoFollow(absPath: string, target: string): Promise<void> {
  const path = resolve(absPath);
  await inFolder(path, true, async (at) => {
    const temp = at(`.${basename(path)}.keel-${randomBytes(6).toString('hex')}.tmp`);
    await symlink(target, temp);
    return { commit: () => rename(temp, at(basename(path))), abandon: () => unlink(temp) };
  });
}

/** Reads a file (a protected one: rules, settings) only if no link on its way leads elsewhere. */
export async function readFileNoFollow(absPath: string): Promise<Buffer> {
  const path = resolve(absPath);
  let bytes: Buffer | undefined;
  await inFolder(path, false, async (at) => {
    const file = await open(at(basename(path)), constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: unknown) =>
      Promise.reject(errorCode(err) === 'ELOOP' ? redirected(path, 'it became a link') : err),
    );
    try {
      bytes = await file.readFile();
    } finally {
      await file.close();
    }
  });
  return bytes!;
}

/**
 * Throws RedirectedPathError when the folder of `absPath` cannot be reached without following
 * a link, or is no longer where it was checked; a missing folder is fine (nothing to follow).
 * For writes Keel cannot make through a descriptor (VS Code saving a document): checked
 * right before and after, which narrows the race to the editor's own save.
 */
export async function expectNoRedirect(absPath: string): Promise<void> {
  const path = resolve(absPath);
  try {
    await inFolder(path, false, async () => undefined);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return;
    throw err;
  }
}

type Step = { commit(): Promise<void>; abandon(): Promise<void> } | void;

/**
 * Opens the folder of `path` without following links and runs `act` with a function naming
 * entries inside that very folder; checks the folder is still where it was checked before
 * `act`'s result is committed (renamed into place).
 */
async function inFolder(path: string, create: boolean, act: (at: (name: string) => string) => Promise<Step>): Promise<void> {
  const folder = dirname(path);
  if (!procFd) {
    await checkNoLinks(folder, path, create);
    const step = await act((name) => `${folder}${sep}${name}`);
    if (step) await settle(step, async () => undefined);
    return;
  }
  const handle = await openFolder(folder, path, create);
  try {
    const at = (name: string) => `${procFd}/${handle.fd}/${name}`;
    await expectAt(handle, folder, path);
    const step = await act(at);
    if (step) await settle(step, () => expectAt(handle, folder, path));
  } finally {
    await handle.close();
  }
}

/** Commits the step once `check` passes; otherwise, or when the commit fails, removes what it left. */
async function settle(step: { commit(): Promise<void>; abandon(): Promise<void> }, check: () => Promise<void>): Promise<void> {
  try {
    await check();
    await step.commit();
  } catch (err) {
    await step.abandon().catch((cleanupErr: unknown) =>
      Promise.reject(new Error(`${errorMessageOf(err)}; and its temporary file could not be removed: ${errorMessageOf(cleanupErr)}`)),
    );
    throw err;
  }
}

function errorMessageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Opens each component from `/` with O_NOFOLLOW (creating missing ones when `create`). */
async function openFolder(folder: string, path: string, create: boolean): Promise<FileHandle> {
  let handle = await open('/', folderFlags);
  try {
    for (const part of folder.split(sep).filter(Boolean)) {
      const at = `${procFd}/${handle.fd}/${part}`;
      let next: FileHandle;
      try {
        next = await open(at, folderFlags);
      } catch (err) {
        const code = errorCode(err);
        if (code === 'ELOOP' || code === 'ENOTDIR') throw redirected(path, `a folder on its way (${part}) is now a link or a file`);
        if (code !== 'ENOENT' || !create) throw err;
        await mkdir(at).catch((mkErr: unknown) => (errorCode(mkErr) === 'EEXIST' ? undefined : Promise.reject(mkErr)));
        next = await open(at, folderFlags).catch((openErr: unknown) =>
          Promise.reject(errorCode(openErr) === 'ELOOP' ? redirected(path, `a folder on its way (${part}) is now a link`) : openErr),
        );
      }
      await handle.close();
      handle = next;
    }
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The opened folder must still be the checked one: a folder swapped away shows its new name here. */
async function expectAt(handle: FileHandle, folder: string, path: string): Promise<void> {
  const now = await readlink(`${procFd}/${handle.fd}`);
  if (now !== folder) throw redirected(path, `its folder moved (now ${now})`);
}

/** Where no descriptor can name a folder's entries: no component may be a link right before the write. */
async function checkNoLinks(folder: string, path: string, create: boolean): Promise<void> {
  if (create) await mkdir(folder, { recursive: true });
  const parts = folder.split(sep);
  for (let i = 2; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join(sep);
    if (prefix === '' || /^[A-Za-z]:$/.test(prefix)) continue;
    if ((await lstat(prefix)).isSymbolicLink()) throw redirected(path, `a folder on its way (${prefix}) is now a link`);
  }
}

async function regularMode(path: string): Promise<number | undefined> {
  try {
    const info = await lstat(path);
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}
