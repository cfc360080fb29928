/**
 * The syntax tree of the part of the shell language Keel checks commands against (bash
 * grammar). Anything outside it is a ShellParseError, and a command that does not parse is
 * never auto-approved.
 */

/** One piece of a word, after quote removal. */
export type WordPart =
  /** Text that means itself: unquoted, quoted or escaped characters. */
  | { kind: 'text'; text: string }
  /** `$name`, `${name}`, `$1`, `$@`...: unknown until run. */
  | { kind: 'param'; name: string }
  /** An unquoted glob (`*`, `?`, `[`) or brace expansion: may become other words. */
  | { kind: 'pattern'; text: string }
  /** `~` or `~user` at the start of a word. */
  | { kind: 'tilde'; user: string }
  /** `$'...'` (ANSI-C quoting): kept as written, treated as unknown. */
  | { kind: 'ansiC'; raw: string }
  /** `$(...)` or backticks: a script that runs while the word is expanded. */
  | { kind: 'commandSub'; script: Script }
  /** `<(...)` or `>(...)`: a script that runs beside the command; the word becomes a /dev/fd path. */
  | { kind: 'processSub'; script: Script };

export interface Word {
  parts: WordPart[];
  /** The source text of the word, as written. */
  raw: string;
}

export type RedirectOp = '>' | '>>' | '>|' | '<' | '<>' | '&>' | '&>>' | '>&' | '<&' | '<<' | '<<-' | '<<<';

export interface HereDoc {
  /** The delimiter was quoted: the body is literal text. */
  quoted: boolean;
  /** The body with expansions (for an unquoted delimiter) or as one text part. */
  body: Word;
}

export interface Redirect {
  /** The file descriptor written before the operator (`2>`), if any. */
  fd?: number;
  op: RedirectOp;
  /** The file, descriptor (`>&2`) or here-doc delimiter. */
  target: Word;
  /** For `<<` and `<<-`: the body, once read. */
  hereDoc?: HereDoc;
}

export interface Assignment {
  name: string;
  /** The value (empty word for `name=`); `append` for `name+=value`. */
  value: Word;
  append: boolean;
  raw: string;
}

export interface SimpleCommand {
  type: 'simple';
  assignments: Assignment[];
  words: Word[];
  redirects: Redirect[];
}

export interface GroupCommand {
  /** `( ... )` runs in a subshell, `{ ...; }` in the current shell. */
  type: 'subshell' | 'group';
  body: Script;
  redirects: Redirect[];
}

export interface IfCommand {
  type: 'if';
  clauses: { condition: Script; body: Script }[];
  elseBody?: Script;
  redirects: Redirect[];
}

export interface LoopCommand {
  type: 'while' | 'until';
  condition: Script;
  body: Script;
  redirects: Redirect[];
}

export interface ForCommand {
  type: 'for';
  name: string;
  /** The words after `in`; undefined for `for x; do` (the positional parameters). */
  items?: Word[];
  body: Script;
  redirects: Redirect[];
}

export type Command = SimpleCommand | GroupCommand | IfCommand | LoopCommand | ForCommand;

export interface Pipeline {
  negated: boolean;
  /** Preceded by the `time` keyword. */
  timed: boolean;
  commands: Command[];
}

export interface AndOrList {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
  /** Ended by `&`: runs in the background. */
  background: boolean;
}

export interface Script {
  items: AndOrList[];
}
