/**
 * What makes a git process Keel runs on the host unable to run anything the repository
 * names. Every key here names a program (or decides whether one runs) and would otherwise be
 * read from the repository's own config, which a command in the workspace may have written.
 * On git's command line (`-c`), they beat every config file, and git hands them to the git
 * processes it starts itself (through GIT_CONFIG_PARAMETERS), nested repositories included.
 */
export const fixedOverrides: readonly string[] = [
  // A hook path that can never hold a file: no hook of any name runs (pre-commit,
  // post-checkout, reference-transaction, pre-auto-gc, ...).
  `core.hooksPath=${process.platform === 'win32' ? 'NUL' : '/dev/null'}`,
  'core.fsmonitor=false',
  'core.pager=cat',
  // `:` is git's own word for "no editor": nothing is started.
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  // The empty value empties the list of helpers (the person's ones too, for Keel's git only).
  'credential.helper=',
  // No transport at all: core.sshCommand, core.gitProxy, remote helpers and url rewrites are
  // never reached; the ssh command is still pinned in case a transport is ever added.
  'protocol.allow=never',
  'core.sshCommand=false',
  // Nested repositories: not entered for their state, not recursed into.
  'submodule.recurse=false',
  'diff.ignoreSubmodules=dirty',
  'status.submoduleSummary=false',
  // `git log` would run gpg.program on every signed commit.
  'log.showSignature=false',
  // Nothing starts a background gc or maintenance (and its hooks) from Keel's git.
  'gc.auto=0',
  'maintenance.auto=false',
];

/** Turns off the external diff and textconv drivers, which an empty config value cannot. */
const diffing = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'];

/**
 * The git commands Keel may run on the host, each with the options it always gets (right
 * after the command's name). A command not here is refused: merge drivers, transports and
 * submodule commands can run what a repository names, and the options above cannot stop all of
 * them, so a new use of git has to be looked at and added here.
 */
export const allowedCommands: Readonly<Record<string, readonly string[]>> = {
  status: ['--ignore-submodules=dirty'],
  diff: diffing,
  log: diffing,
  'diff-tree': diffing,
  add: [],
  'ls-files': [],
  'ls-tree': [],
  'cat-file': [],
  'rev-parse': [],
  config: [],
  init: [],
  'update-index': [],
  'write-tree': [],
  prune: [],
  'prune-packed': [],
  'pack-objects': [],
  'show-index': [],
  'count-objects': [],
  branch: [],
  worktree: [],
};

/** Why these arguments may not run on the host, or undefined when they may. */
export function refusedArgs(command: string, args: readonly string[]): string | undefined {
  if (!(command in allowedCommands)) return `git ${command} is not a command Keel runs outside the sandbox`;
  // cat-file would run the filters and textconv drivers the attributes name.
  if (command === 'cat-file' && args.some((a) => a === '--filters' || a === '--textconv' || a.startsWith('--path'))) return 'git cat-file with filters or textconv';
  if (args.some((a) => a === '--recurse-submodules' || a.startsWith('--recurse-submodules='))) return `git ${command} into nested repositories`;
  // Without --force, `worktree remove` runs `git status` inside the worktree with submodules
  // entered; Keel checks for uncommitted work itself, with the options above.
  if (command === 'worktree' && args[0] === 'remove' && !args.includes('--force')) return 'git worktree remove without --force (Keel checks for uncommitted work itself)';
  return undefined;
}

/** Variables Keel's git keeps from the person's environment: the rest of GIT_* is dropped. */
const personGitVariables = new Set(['GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM']);

/**
 * The environment of a git process Keel runs: the person's environment without what would
 * point git at another repository or add config (GIT_DIR, GIT_CONFIG_PARAMETERS, ...), the
 * caller's own repository variables, then what no caller may change.
 */
export function hostGitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') && !personGitVariables.has(key)) continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (key.startsWith('GIT_CONFIG')) throw new Error(`hostGit: ${key} cannot be passed; config goes on the command line`);
    env[key] = value;
  }
  Object.assign(env, {
    GIT_PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  });
  return env;
}
