import { hostGit } from '../git/hostGit';

export interface GitOutput {
  ok: boolean;
  stdout: string;
  /** First lines of stderr, or why git could not run. */
  error?: string;
  /** git is not installed (or not on PATH). */
  missing?: boolean;
}

const maxBuffer = 8 * 1024 * 1024;

/**
 * Runs one git command in `cwd`, never prompting and never taking the index lock (so a
 * look at the status cannot disturb the person's own git commands), with the repository's
 * own programs off (see `hostGit`). Never rejects: the outcome says what went wrong.
 */
export async function runGit(cwd: string, args: string[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<GitOutput> {
  const out = await hostGit(cwd, ['-c', 'core.quotepath=off', ...args], { maxBuffer, timeoutMs: opts.timeoutMs ?? 10_000, ...(opts.signal ? { signal: opts.signal } : {}) });
  const stdout = out.stdout.toString('utf8');
  if (out.ok) return { ok: true, stdout };
  if (out.missing) return { ok: false, stdout: '', missing: true, error: out.error ?? 'git is not installed or not on PATH' };
  return { ok: false, stdout, error: out.error ?? 'unknown error' };
}
