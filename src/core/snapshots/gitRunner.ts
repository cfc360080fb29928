import { spawn } from 'node:child_process';

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
 * no command here can read or write the person's index, refs or stash.
 */
export function runGit(env: GitEnv, args: readonly string[], opts: { input?: string | Buffer; cwd?: string; noWorkTree?: boolean; extraEnv?: Record<string, string> } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (key.startsWith('GIT_') && key !== 'GIT_EXEC_PATH') continue;
      childEnv[key] = value;
    }
    Object.assign(childEnv, {
      GIT_DIR: env.gitDir,
      GIT_INDEX_FILE: env.indexFile,
      GIT_WORK_TREE: env.workTree,
      GIT_LITERAL_PATHSPECS: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      LC_ALL: 'C',
    });
    if (opts.extraEnv) Object.assign(childEnv, opts.extraEnv);
    if (opts.noWorkTree) delete childEnv.GIT_WORK_TREE;
    const child = spawn('git', ['-c', 'core.quotepath=false', ...args], {
      cwd: opts.cwd ?? env.workTree,
      env: childEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(new GitError(`git could not be started (${e.message}); Keel needs git on PATH to record what commands change`, null)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else {
        const stderr = Buffer.concat(err).toString('utf8');
        reject(new GitError(`git ${args[0]} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`, code, stderr));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs git in the person's repository for reading only (its object folder, whether it is one). */
export function readPersonGit(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_') || key === 'GIT_EXEC_PATH') childEnv[key] = value;
    // GIT_OPTIONAL_LOCKS=0: even a read must not refresh the person's index.
    Object.assign(childEnv, { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
    const child = spawn('git', args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(out).toString('utf8') : undefined));
  });
}
