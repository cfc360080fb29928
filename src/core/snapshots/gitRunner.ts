import { hostGit } from '../git/hostGit';

export interface GitEnv {
  /** Keel's private repository (never the person's). */
  gitDir: string;
  /** Keel's private index, kept between snapshots so unchanged files are not read again. */
  indexFile: string;
  /** The workspace folder, as work tree. */
  workTree: string;
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/**
 * Runs git against Keel's private repository only: GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE
 * are always set, and whatever the environment says about another repository is dropped, so
 * no command here can read or write the person's index, refs or stash. Through `hostGit`: the
 * work tree is the workspace, so nothing its files name runs.
 */
export async function runGit(env: GitEnv, args: readonly string[], opts: { input?: string | Buffer; cwd?: string; noWorkTree?: boolean; extraEnv?: Record<string, string> } = {}): Promise<Buffer> {
  const vars: Record<string, string> = {
    GIT_DIR: env.gitDir,
    GIT_INDEX_FILE: env.indexFile,
    GIT_WORK_TREE: env.workTree,
    GIT_LITERAL_PATHSPECS: '1',
    ...opts.extraEnv,
  };
  if (opts.noWorkTree) delete vars.GIT_WORK_TREE;
  const out = await hostGit(opts.cwd ?? env.workTree, ['-c', 'core.quotepath=false', ...args], { env: vars, ...(opts.input !== undefined ? { input: opts.input } : {}) });
  if (out.ok) return out.stdout;
  if (out.code === null) throw new GitError(`git could not be started (${out.error}); Keel needs git on PATH to record what commands change`, null);
  throw new GitError(`git ${args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c')} failed (exit ${out.code}): ${out.stderr.trim().split('\n').slice(-3).join(' ')}`, out.code, out.stderr);
}

/** Runs git in the person's repository for reading only (its object folder, whether it is one). */
export async function readPersonGit(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const out = await hostGit(cwd, args);
  return out.ok ? out.stdout.toString('utf8') : undefined;
}
