import { lstat, mkdir, readFile, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { KeelError } from '../errors';
import { writeFileNoFollow } from '../workspace/noFollowFiles';
import type { WorktreeFileChange } from './worktreeDiff';

/** The checkout path of a repository path, refused when it would leave the checkout. */
export function checkoutPath(checkout: string, repoPath: string): string {
  const path = join(checkout, ...repoPath.split('/'));
  const rel = relative(checkout, path);
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('.git')) {
    throw new KeelError('config', `${repoPath} is not a path Keel writes in the checkout.`);
  }
  return path;
}

/** The bytes of a checkout file now; null when there is none. */
export async function checkoutBytes(checkout: string, repoPath: string): Promise<Buffer | null> {
  const path = checkoutPath(checkout, repoPath);
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) throw new KeelError('config', `${repoPath} is a symbolic link in the checkout: Keel does not write through it.`);
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Whether the checkout still holds the base of this change (where the worktree started):
 * false when the person changed the file since, or made one where the worktree adds one.
 * For a rename, both the old path (still the base) and the new one (still free) count.
 */
export async function checkoutAtBase(checkout: string, change: WorktreeFileChange): Promise<boolean> {
  if (change.status === 'renamed') {
    return same(await checkoutBytes(checkout, change.oldPath!), change.base) && (await checkoutBytes(checkout, change.path)) === null;
  }
  return same(await checkoutBytes(checkout, change.path), change.base);
}

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/**
 * Writes what the person accepted of one change into the checkout, byte for byte: `bytes`
 * null deletes the file; the exec bit follows the worktree's file; a rename's old path goes
 * once the new one is written. Refuses (writes nothing) when the checkout's file is no longer
 * `expected`, the content the person reviewed against.
 */
export async function writeToCheckout(checkout: string, change: WorktreeFileChange, bytes: Buffer | null, expected: Buffer | null): Promise<void> {
  const target = change.status === 'renamed' ? change.oldPath! : change.path;
  if (!same(await checkoutBytes(checkout, target), expected)) {
    throw new KeelError('config', `${target} changed in your checkout while you reviewed it; nothing was written.`);
  }
  const path = checkoutPath(checkout, change.path);
  if (bytes === null) {
    await unlink(path).catch((err: unknown) => ((err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(err)));
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  // The folder may be a symlink out of the checkout: the real folder must still be inside it.
  const realDir = await realpath(dirname(path));
  const realCheckout = await realpath(checkout);
  if (realDir !== realCheckout && !realDir.startsWith(`${realCheckout}${sep}`)) {
    throw new KeelError('config', `${change.path} would be written outside the checkout (a folder on its way is a link); nothing was written.`);
  }
  // The person's permission bits stay; only the exec bits follow the worktree's file. Written
  // into the checked real folder without following links (noFollowFiles).
  await writeFileNoFollow(join(realDir, basename(path)), bytes, {
    mode: (current) => {
      const before = current !== undefined ? current & 0o777 : 0o666 & ~process.umask();
      return change.executable ? before | ((before & 0o444) >> 2) : before & ~0o111;
    },
  });
  if (change.status === 'renamed' && change.oldPath !== change.path) await unlink(checkoutPath(checkout, change.oldPath!));
}
