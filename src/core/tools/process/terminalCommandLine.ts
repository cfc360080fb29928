/**
 * What a command inherits in the terminal: `names` are expanded from the terminal shell's own
 * environment (when set there), `set` is given as is; nothing else passes.
 */
export interface TerminalEnv {
  names: readonly string[];
  set: Readonly<Record<string, string>>;
}

/**
 * The line Keel types into its terminal for a command: `cd` to the folder when the terminal
 * is elsewhere, then `shell -c 'command'`, started by `/usr/bin/env -i` with only the allowed
 * variables when `env` is given: the terminal's shell holds whatever the person's shell set up
 * (tokens exported in a shell profile included), which must not reach the command. Running it through `shell -c` gives it exactly the
 * semantics of the child process (the same parse the approval rules checked; `exit`, `set -e`
 * or `cd` cannot end or move the terminal's shell), and quoting keeps it on one line, which
 * shell integration needs to report one execution. `prefix` (the OS sandbox) goes before the shell.
 */
export function terminalCommandLine(
  shell: string,
  command: string,
  cwd: string,
  terminalCwd: string | undefined,
  prefix: readonly string[] = [],
  env?: TerminalEnv,
): string {
  const run = [...(env ? envWords(env) : []), ...[...prefix, shell].map(shellWord)].join(' ') + ` -c ${shellQuote(command)}`;
  return terminalCwd === cwd ? run : `cd -- ${shellQuote(cwd)} && ${run}`;
}

/** A word as bash reads it back unchanged: '...' when it is printable, $'...' when it holds control characters. */
export function shellQuote(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x1f\x7f]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** `/usr/bin/env -i ${NAME+"NAME=$NAME"}… KEY=value…`: a name unset in the terminal stays unset. */
function envWords(env: TerminalEnv): string[] {
  const valid = /^[A-Za-z_][A-Za-z0-9_]*$/;
  const names = env.names.filter((n) => valid.test(n) && !(n in env.set));
  const set = Object.entries(env.set).filter(([n]) => valid.test(n));
  return ['/usr/bin/env', '-i', ...names.map((n) => `\${${n}+"${n}=$${n}"}`), ...set.map(([n, v]) => shellQuote(`${n}=${v}`))];
}

/** A plain path needs no quotes; anything else gets them. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(word) ? word : shellQuote(word);
}
