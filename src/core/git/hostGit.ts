import { spawn } from 'node:child_process';
import { gitProgram } from './gitProgram';
import { allowedCommands, fixedOverrides, hostGitEnv, refusedArgs } from './gitOverrides';
import { repoFilterOverrides } from './repoFilters';

/**
 * The one way Keel runs git on the host. Keel's git runs in folders a sandboxed command can
 * write (the workspace, its nested repositories, a worktree), so whatever the repository's
 * config, `.gitattributes` or hooks folder say, no program they name runs here:
 *
 * - `fixedOverrides` on the command line: hooks, fsmonitor, pager, editor, askpass,
 *   credential helpers, ssh and every transport, signature checks, background gc; git passes
 *   them on to the git processes it starts itself, nested repositories included;
 * - every filter driver the repository's config defines is emptied (`repoFilters`);
 * - the diff commands get `--no-ext-diff --no-textconv`, status and diff do not enter nested
 *   repositories (`--ignore-submodules=dirty` beats `.gitmodules`), and commands that could
 *   run a merge driver, a transport or recurse into submodules are refused (`allowedCommands`);
 * - the person's environment loses GIT_DIR, GIT_CONFIG_PARAMETERS and the like;
 * - git itself is never one found in the workspace or through a relative PATH entry.
 *
 * The person's own global and system config stays theirs (their LFS filter, their identity),
 * and `safe.directory` is never widened: a repository git refuses for its owner stays refused.
 *
 * One thing a caller must still do: `git add` of an index that holds a nested repository
 * (mode 160000) makes git run `git status` inside it whatever the options say; the fixed
 * overrides reach that process, the repository's filter names do not. Callers exclude the
 * nested repositories they know from the pathspec (`excludeGitlinks`).
 */
export interface HostGitOptions {
  /** Repository variables for this call (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE, ...). */
  env?: Readonly<Record<string, string>>;
  input?: string | Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Output beyond this many bytes fails the call (default: no limit). */
  maxBuffer?: number;
}

export interface HostGitResult {
  ok: boolean;
  /** Exit code; null when git did not start or was stopped. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** git is not installed (or not on PATH). */
  missing?: boolean;
  /** Why it failed, in a line: git's first lines of stderr, or why it did not run. */
  error?: string;
}

const configFlags = new Set(['-c']);

/** Splits the caller's leading `-c key=value` pairs from the command and its arguments. */
function splitArgs(args: readonly string[]): { config: string[]; command: string; rest: string[] } {
  const config: string[] = [];
  let i = 0;
  while (i < args.length && configFlags.has(args[i]!)) {
    config.push(args[i]!, args[i + 1] ?? '');
    i += 2;
  }
  const command = args[i] ?? '';
  if (command.startsWith('-')) throw new Error(`hostGit: only -c may come before the command (got ${command})`);
  return { config, command, rest: args.slice(i + 1) };
}

function failed(message: string, extra: Partial<HostGitResult> = {}): HostGitResult {
  return { ok: false, code: null, stdout: Buffer.alloc(0), stderr: '', error: message, ...extra };
}

function spawnGit(cwd: string, argv: readonly string[], env: NodeJS.ProcessEnv, opts: HostGitOptions): Promise<HostGitResult> {
  const program = gitProgram(cwd);
  if (!program) return Promise.resolve(failed('git is not installed or not on PATH (a git inside the workspace is not run)', { missing: true }));
  return new Promise((resolve) => {
    const child = spawn(program, argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, ...(opts.signal ? { signal: opts.signal } : {}) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs) : undefined;
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (opts.maxBuffer !== undefined && size > opts.maxBuffer) {
        overflow = true;
        child.kill('SIGTERM');
        return;
      }
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let settled = false;
    const finish = (result: HostGitResult): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(result);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') finish(failed('git is not installed or not on PATH', { missing: true }));
      else finish(failed(e.name === 'AbortError' ? 'stopped' : `git could not be started (${e.message})`));
    });
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out);
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0 && !overflow) return finish({ ok: true, code, stdout, stderr });
      const why = overflow ? `more than ${opts.maxBuffer} bytes of output` : stderr.trim().split('\n').slice(0, 3).join(' ') || (signal ? `stopped (${signal})` : `exit ${code}`);
      finish({ ok: false, code, stdout, stderr, error: why });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs `git [-c k=v ...] <command> ...` in `cwd` with the repository's own programs off. Never rejects. */
export async function hostGit(cwd: string, args: readonly string[], opts: HostGitOptions = {}): Promise<HostGitResult> {
  const { config, command, rest } = splitArgs(args);
  const refused = refusedArgs(command, rest);
  if (refused) return failed(`refused: ${refused}`);
  const env = hostGitEnv(opts.env);
  const fixed = fixedOverrides.flatMap((kv) => ['-c', kv]);
  // `init` makes the repository: there is no config of its own to read yet.
  const filters = command === 'init' ? [] : await repoFilterOverrides(cwd, opts.env?.GIT_DIR, async () => {
    const listed = await spawnGit(cwd, ['--no-pager', ...fixed, 'config', '--list', '--null', '--show-origin', '--show-scope'], env, {});
    // Outside any repository `config --list` still lists the person's files; a config git
    // cannot parse fails here and would fail the command too.
    return listed.ok ? listed.stdout.toString('utf8') : undefined;
  });
  if (filters === undefined) return failed(`git cannot read the config in ${cwd}`);
  // The caller's settings first: the ones that keep programs off come later and win.
  const argv = ['--no-pager', '--no-optional-locks', ...config, ...fixed, ...filters.flatMap((kv) => ['-c', kv]), command, ...allowedCommands[command]!, ...rest];
  return spawnGit(cwd, argv, env, opts);
}

/**
 * Pathspecs that keep `git add` out of the nested repositories listed (relative to the top of
 * the work tree, with `/`), so git does not start `git status` inside them. For commands run
 * without GIT_LITERAL_PATHSPECS.
 */
export function excludeGitlinks(paths: Iterable<string>): string[] {
  return [...paths].map((p) => `:(exclude,top,literal)${p}`);
}
