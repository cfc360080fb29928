import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { errorCode } from '../errorCode';

/** Where a working tree's git data lives, found without running git. */
export interface GitRepo {
  /** The working tree's top folder (holds `.git`). */
  top: string;
  /** The `.git` folder of this working tree (a linked worktree has its own). */
  gitDir: string;
  /** Shared refs and objects: gitDir itself, or the main repository's for a linked worktree. */
  commonDir: string;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw err;
  }
}

/** The repository containing `folder`, or undefined when no folder above it holds `.git`. */
export async function findGitRepo(folder: string): Promise<GitRepo | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    let info;
    try {
      info = await stat(dotGit);
    } catch (err) {
      const code = errorCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
    if (info?.isDirectory()) return { top: dir, gitDir: dotGit, commonDir: dotGit };
    if (info?.isFile()) {
      // A linked worktree or submodule: `.git` is a file saying `gitdir: <path>`.
      const text = (await readIfExists(dotGit)) ?? '';
      const target = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
      if (target) {
        const gitDir = isAbsolute(target) ? target : resolve(dir, target);
        const common = (await readIfExists(join(gitDir, 'commondir')))?.trim();
        return { top: dir, gitDir, commonDir: common ? resolve(gitDir, common) : gitDir };
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The repository's main branch: what `origin/HEAD` points to, else `main` or `master` if
 * such a branch exists locally or on origin. Read from the ref files, so no git process.
 */
export async function mainBranch(repo: GitRepo): Promise<string | undefined> {
  const originHead = await readIfExists(join(repo.commonDir, 'refs', 'remotes', 'origin', 'HEAD'));
  const named = originHead && /^ref:\s*refs\/remotes\/origin\/(.+)$/m.exec(originHead)?.[1]?.trim();
  if (named) return named;
  const packed = (await readIfExists(join(repo.commonDir, 'packed-refs'))) ?? '';
  for (const candidate of ['main', 'master']) {
    for (const ref of [`refs/heads/${candidate}`, `refs/remotes/origin/${candidate}`]) {
      if ((await readIfExists(join(repo.commonDir, ...ref.split('/')))) !== undefined) return candidate;
      if (packed.includes(` ${ref}\n`) || packed.endsWith(` ${ref}`)) return candidate;
    }
  }
  return undefined;
}

/**
 * Files whose change means the status or log may differ: HEAD (checkout, commit), the
 * index (stage, commit) and the branch reflog (commit, reset, pull).
 */
export function gitStampPaths(repo: GitRepo): string[] {
  return [join(repo.gitDir, 'HEAD'), join(repo.gitDir, 'index'), join(repo.gitDir, 'logs', 'HEAD')];
}
