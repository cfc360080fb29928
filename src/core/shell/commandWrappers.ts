import { scanOptions } from './commandOptions';
import type { OptionSpec, WordValue } from './commandOptions';

/**
 * What running a command really runs, for commands that run other commands.
 * - `command`: a wrapper (`env`, `nohup`, `xargs`...) around `words`, which decide the match.
 * - `script`: the command runs shell source (`bash -c`, `eval`, `watch`); null when unknown.
 * - `stdinScript`: a shell that reads its commands from its input.
 * - `self`: the command is matched as it is, but also runs `inner` commands (`find -exec`).
 * - `blocked`: never approved by a rule (another user, unknown options); `inner` when known.
 * Any kind may name `writes`: files the command writes besides redirections.
 */
export type Unwrapped =
  | { kind: 'command'; words: WordValue[]; assignments: WordValue[]; writes: WordValue[] }
  | { kind: 'script'; source: WordValue }
  | { kind: 'stdinScript' }
  | { kind: 'self'; inner: WordValue[][]; writes: WordValue[] }
  | { kind: 'blocked'; reason: string; inner?: WordValue[] };

const systemDirs = ['/bin/', '/usr/bin/', '/usr/local/bin/', '/sbin/', '/usr/sbin/'];
const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);
const otherUsers = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'runuser']);

/** The command's name as a wrapper: bare, or in a system folder (`/usr/bin/env`); never `./env`. */
function wrapperName(word: WordValue): string | undefined {
  if (word === null) return undefined;
  if (!word.includes('/')) return word;
  const dir = systemDirs.find((d) => word.startsWith(d));
  const rest = dir ? word.slice(dir.length) : '';
  return rest !== '' && !rest.includes('/') ? rest : undefined;
}

const specs: Record<string, OptionSpec> = {
  nohup: {},
  builtin: {},
  command: { flags: 'pvV' },
  exec: { flags: 'cl', withArg: 'a' },
  time: {
    flags: 'pvqa',
    withArg: 'fo',
    longFlags: ['--portability', '--verbose', '--quiet', '--append'],
    longWithArg: ['--format', '--output'],
  },
  nice: { withArg: 'n', numeric: true, longWithArg: ['--adjustment'] },
  timeout: {
    flags: 'v',
    withArg: 'sk',
    longFlags: ['--preserve-status', '--foreground', '--verbose'],
    longWithArg: ['--signal', '--kill-after'],
  },
  stdbuf: { withArg: 'ioe', longWithArg: ['--input', '--output', '--error'] },
  setsid: { flags: 'cfw', longFlags: ['--ctty', '--fork', '--wait'] },
  env: { flags: 'i0v', withArg: 'u', longFlags: ['--ignore-environment', '--null', '--debug'], longWithArg: ['--unset'] },
  xargs: {
    flags: '0rtpxo',
    withArg: 'adEILnPs',
    optionalArg: 'eil',
    longFlags: ['--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty', '--show-limits'],
    longWithArg: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    longOptionalArg: ['--replace', '--eof', '--max-lines'],
  },
  watch: {
    flags: 'tbegcpwxrq',
    withArg: 'n',
    optionalArg: 'd',
    longFlags: ['--precise', '--no-title', '--beep', '--errexit', '--chgexit', '--color', '--no-color', '--exec', '--no-wrap', '--no-rerun'],
    longWithArg: ['--interval'],
    longOptionalArg: ['--differences'],
  },
  sudo: {
    flags: 'AbBEHiKklLnNPSsVv',
    withArg: 'CDghprtTUu',
    longFlags: ['--askpass', '--background', '--bell', '--preserve-env', '--set-home', '--login', '--remove-timestamp', '--reset-timestamp', '--list', '--non-interactive', '--preserve-groups', '--stdin', '--shell', '--version', '--validate'],
    longWithArg: ['--close-from', '--chdir', '--group', '--host', '--prompt', '--chroot', '--role', '--type', '--command-timeout', '--other-user', '--user'],
  },
  doas: { flags: 'Lns', withArg: 'aCu' },
};

/** Whether a word is `NAME=value` (as `env` takes it). */
const envAssignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Undefined when the command runs nothing but itself (as far as Keel knows). */
export function unwrapCommand(words: readonly WordValue[]): Unwrapped | undefined {
  const name = wrapperName(words[0] ?? null);
  if (name === undefined) return undefined;
  if (shells.has(name)) return unwrapShell(words);
  if (otherUsers.has(name)) return unwrapOtherUser(name, words);
  if (name === 'eval') {
    const rest = words.slice(1);
    return { kind: 'script', source: rest.some((w) => w === null) ? null : rest.join(' ') };
  }
  if (name === 'find') return unwrapFind(words);
  const spec = specs[name];
  if (!spec) return undefined;
  const scan = scanOptions(words, 1, spec);
  if (!scan.ok) return { kind: 'blocked', reason: `${name}: ${scan.problem}` };
  let rest = words.slice(scan.index);
  const writes: WordValue[] = [];
  const assignments: WordValue[] = [];
  switch (name) {
    case 'time':
      for (const o of scan.options) if (o.name === '-o' || o.name === '--output') writes.push(o.value ?? null);
      break;
    case 'timeout':
      rest = rest.slice(1);
      break;
    case 'env':
      while (rest.length > 0 && rest[0] !== null && envAssignment.test(rest[0])) {
        assignments.push(rest[0]);
        rest = rest.slice(1);
      }
      if (rest[0] === null) return { kind: 'blocked', reason: 'env: the command is not known until it runs' };
      break;
    case 'xargs':
      if (rest.length === 0) rest = ['echo'];
      rest = withReplacement(rest, scan.options);
      break;
    case 'watch':
      if (!scan.options.some((o) => o.name === '-x' || o.name === '--exec')) {
        return rest.length === 0 ? undefined : { kind: 'script', source: rest.some((w) => w === null) ? null : rest.join(' ') };
      }
      break;
  }
  // `env` alone prints the environment, `command -v` alone fails: the wrapper is the command.
  if (rest.length === 0) return undefined;
  return { kind: 'command', words: rest, assignments, writes };
}

/** With `xargs -I R`, every argument holding R is replaced by input: unknown until run. */
function withReplacement(words: WordValue[], options: { name: string; value?: WordValue }[]): WordValue[] {
  let replace: WordValue | undefined;
  for (const o of options) {
    if (o.name === '-I') replace = o.value ?? null;
    if (o.name === '-i' || o.name === '--replace') replace = o.value ?? '{}';
  }
  if (replace === undefined) return words;
  const token = replace;
  return words.map((w) => (w === null || token === null || token === '' || w.includes(token) ? null : w));
}

/**
 * `sh -c 'script'` runs the script; `sh file` runs a file (matched as written); `sh` alone,
 * or with `-s`, reads commands from its input.
 */
function unwrapShell(words: readonly WordValue[]): Unwrapped | undefined {
  let i = 1;
  let command = false;
  let stdin = false;
  while (i < words.length) {
    const word = words[i];
    if (word === null) return { kind: 'blocked', reason: 'a shell option is not known until the command runs' };
    if (word === '--' || word === '-') {
      i++;
      break;
    }
    if (word.startsWith('--')) {
      const known = ['--norc', '--noprofile', '--posix', '--login', '--restricted', '--verbose', '--noediting', '--version', '--help'];
      if (!known.includes(word)) return { kind: 'blocked', reason: `shell option ${word} is not one Keel knows` };
      i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(word)) break;
    if (word.includes('i')) return { kind: 'blocked', reason: 'an interactive shell reads startup files' };
    if (word.startsWith('-') && word.includes('c')) command = true;
    if (word.startsWith('-') && word.includes('s')) stdin = true;
    // `-o name` and `-O name` take the option's name as the next word.
    i += /[oO]$/.test(word) ? 2 : 1;
  }
  if (command) return { kind: 'script', source: i < words.length ? words[i] : null };
  if (stdin || i >= words.length) return { kind: 'stdinScript' };
  return undefined;
}

function unwrapOtherUser(name: string, words: readonly WordValue[]): Unwrapped {
  const reason = `${name} runs the command as another user`;
  const spec = specs[name];
  if (!spec) return { kind: 'blocked', reason };
  const scan = scanOptions(words, 1, spec);
  if (!scan.ok || scan.index >= words.length) return { kind: 'blocked', reason };
  return { kind: 'blocked', reason, inner: words.slice(scan.index) };
}

/** `find ... -exec cmd {} ;` runs cmd; `-fprint file` and its kin write files. */
function unwrapFind(words: readonly WordValue[]): Unwrapped | undefined {
  const inner: WordValue[][] = [];
  const writes: WordValue[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '-exec' || w === '-execdir' || w === '-ok' || w === '-okdir') {
      const cmd: WordValue[] = [];
      let j = i + 1;
      for (; j < words.length && words[j] !== ';' && words[j] !== '+'; j++) {
        const arg = words[j];
        cmd.push(arg === null || arg.includes('{}') ? null : arg);
      }
      inner.push(cmd);
      i = j;
    } else if (w === '-fprint' || w === '-fprint0' || w === '-fls' || w === '-fprintf') {
      writes.push(i + 1 < words.length ? words[i + 1] : null);
      i++;
    }
  }
  return inner.length === 0 && writes.length === 0 ? undefined : { kind: 'self', inner, writes };
}
