import { execFile } from 'node:child_process';

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
 * look at the status cannot disturb the person's own git commands). Never rejects: the
 * outcome says what went wrong.
 */
export function runGit(cwd: string, args: string[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<GitOutput> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--no-optional-locks', '-c', 'core.quotepath=off', ...args],
      {
        cwd,
        maxBuffer,
        timeout: opts.timeoutMs ?? 10_000,
        signal: opts.signal,
        windowsHide: true,
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, stdout });
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve({ ok: false, stdout: '', missing: true, error: 'git is not installed or not on PATH' });
        const detail = stderr.trim().split('\n').slice(0, 3).join(' ') || err.message;
        resolve({ ok: false, stdout, error: detail });
      },
    );
  });
}
