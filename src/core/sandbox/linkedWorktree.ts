import { lstat, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { isGone } from '../goneErrors';
import { pathPresent } from './pathPresence';

/** What a sandboxed command in a linked worktree may write, and what must stay read-only, beyond the folder itself. */
export interface LinkedWorktreeLayout {
  writable: string[];
  readOnly: string[];
}

/**
 * A workspace folder that is a linked git worktree has a `.git` file pointing at
 * `<common>/worktrees/<name>`, outside the folder. `git add` and `git commit` there write the
 * worktree's own git folder (index, HEAD, its logs) and the shared objects, refs and logs; the
 * shared config and hooks, and every file that says where git looks (`.git`, `commondir`,
 * `gitdir`), stay read-only so a command cannot point git at a config of its making. Undefined
 * when the folder is not a linked worktree.
 */
export async function linkedWorktreeLayout(folder: string): Promise<LinkedWorktreeLayout | undefined> {
  const dotGit = join(folder, '.git');
  const info = await lstat(dotGit).catch((err: unknown) => (isGone(err) ? undefined : Promise.reject(err)));
  if (!info?.isFile()) return undefined;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'));
  if (!pointer) return undefined;
  const gitDir = await realpath(isAbsolute(pointer[1]) ? pointer[1] : resolve(folder, pointer[1]));
  const commonFile = join(gitDir, 'commondir');
  const common = await readFile(commonFile, 'utf8').then(
    (text) => realpath(resolve(gitDir, text.trim())),
    (err: unknown) => (isGone(err) ? undefined : Promise.reject(err)),
  );
  // A submodule's `.git` file points at a full git folder with no commondir: nothing shared to open up.
  if (!common) return undefined;
  const writable = [gitDir];
  for (const name of ['objects', 'refs', 'logs']) {
    const path = join(common, name);
    if (await pathPresent(path)) writable.push(path);
  }
  const readOnly = [dotGit];
  for (const name of ['commondir', 'gitdir', 'config.worktree', 'hooks', 'info']) {
    const path = join(gitDir, name);
    if (await pathPresent(path)) readOnly.push(path);
  }
  return { writable, readOnly };
}
