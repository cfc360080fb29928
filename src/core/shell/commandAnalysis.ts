import { isAbsolute, resolve } from 'node:path';
import type { WordValue } from './commandOptions';
import { unwrapCommand } from './commandWrappers';
import { fileWriteTargets } from './fileWriters';
import type { Command, Redirect, Script, SimpleCommand, Word } from './shellAst';
import { ShellParseError } from './shellCursor';
import { parseShell } from './shellParser';
import { pathValue, shownWord, staticValue } from './wordValue';

/** One command that running the command line would start. */
export interface CommandUse {
  /**
   * The words allow rules are matched against: assignments first, then the command and its
   * arguments, after known wrappers (`env`, `nohup`, `xargs`...). Absent for a wrapper that
   * runs a script (`bash -c`, `eval`): the script's own commands are uses of their own.
   */
  words?: WordValue[];
  /** The command as written and as each wrapper unwraps it (no assignments): what deny rules see. */
  forms: WordValue[][];
  /** Why no rule can approve this command. */
  blocked?: string;
}

/** A file the command line writes (a redirection, `time -o`, `find -fprint`). */
export interface WriteTarget {
  shown: string;
  /** Absolute candidates, one per working folder it may run in; absent when not known before running. */
  paths?: string[];
}

export interface CommandAnalysis {
  uses: CommandUse[];
  writes: WriteTarget[];
}

export interface AnalysisOptions {
  /** Where the command line starts. */
  cwd: string;
  /** What `~` means. */
  home: string;
}

/** Most working folders tracked through `cd` before the folder counts as unknown. */
const maxCwds = 16;
/** Deepest wrapper chain followed (`env nohup nice timeout ...`). */
const maxUnwrap = 16;
const outputOps = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/**
 * Builtins that take variable names: bash evaluates an array subscript in one as arithmetic,
 * which runs substitutions written inside it (`printf -v 'a[$(cmd)]' x` runs cmd).
 */
const variableNameBuiltins = new Set([
  'printf', 'test', '[', 'read', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'wait', 'mapfile', 'readarray', 'let', 'getopts',
]);
/** A `$` or backtick inside `[...]` (scanned: the regex for it backtracks quadratically). */
function hasSubscriptExpansion(word: string): boolean {
  let inBrackets = false;
  for (const c of word) {
    if (c === '[') inBrackets = true;
    else if (c === ']') inBrackets = false;
    else if (inBrackets && (c === '$' || c === '`')) return true;
  }
  return false;
}
const stdinOps = new Set(['<<', '<<-', '<<<']);

/**
 * Every command a command line would start, with the files it would write. Throws
 * ShellParseError when the line is not valid shell or leaves the supported subset.
 */
export function analyzeCommand(source: string, opts: AnalysisOptions): CommandAnalysis {
  const walker = new Walker(opts.home, new Set([opts.cwd]));
  walker.script(parseShell(source));
  return { uses: walker.uses, writes: walker.writes };
}

class Walker {
  readonly uses: CommandUse[] = [];
  readonly writes: WriteTarget[] = [];
  private loopDepth = 0;

  constructor(
    private readonly home: string,
    /** Folders the next command may run in; undefined once they cannot be known. */
    private cwds: Set<string> | undefined,
  ) {}

  script(script: Script): void {
    for (const list of script.items) {
      for (const pipeline of [list.first, ...list.rest.map((r) => r.pipeline)]) {
        for (const command of pipeline.commands) this.command(command);
      }
    }
  }

  private command(command: Command): void {
    this.redirects(command.redirects);
    switch (command.type) {
      case 'simple':
        this.simple(command);
        return;
      case 'subshell':
      case 'group':
        this.script(command.body);
        return;
      case 'if':
        for (const clause of command.clauses) {
          this.script(clause.condition);
          this.script(clause.body);
        }
        if (command.elseBody) this.script(command.elseBody);
        return;
      case 'while':
      case 'until':
        this.loopDepth++;
        this.script(command.condition);
        this.script(command.body);
        this.loopDepth--;
        return;
      case 'for':
        for (const item of command.items ?? []) this.word(item);
        this.loopDepth++;
        this.script(command.body);
        this.loopDepth--;
        return;
    }
  }

  /** Walks the scripts a word runs while it expands; returns its static value. */
  private word(word: Word): WordValue {
    for (const part of word.parts) {
      if (part.kind === 'commandSub' || part.kind === 'processSub') this.script(part.script);
    }
    return staticValue(word);
  }

  private redirects(redirects: Redirect[]): void {
    for (const r of redirects) {
      this.word(r.target);
      if (r.hereDoc) this.word(r.hereDoc.body);
      const isFileWrite = outputOps.has(r.op) || (r.op === '>&' && !/^([0-9]+-?|-)$/.test(staticValue(r.target) ?? ''));
      if (isFileWrite) this.addWrite(pathValue(r.target, this.home), r.target.raw);
    }
  }

  private addWrite(path: WordValue, shown: string): void {
    if (path === null) {
      this.writes.push({ shown });
      return;
    }
    if (isAbsolute(path)) {
      this.writes.push({ shown, paths: [path] });
      return;
    }
    // Joined, not resolved: `link/../x` must be resolved through the link, as the kernel does.
    this.writes.push(this.cwds ? { shown, paths: [...this.cwds].map((c) => `${c}/${path}`) } : { shown });
  }

  private simple(cmd: SimpleCommand): void {
    const assignments = cmd.assignments.map((a) => {
      const value = this.word(a.value);
      return value === null ? null : `${a.name}${a.append ? '+=' : '='}${value}`;
    });
    const words = cmd.words.map((w) => this.word(w));
    if (words.length === 0) {
      this.uses.push({ words: assignments, forms: [[]] });
      return;
    }
    const final = this.unwrap(words, assignments, cmd);
    this.trackCwd(final, final === words ? cmd.words : undefined);
  }

  /** Follows wrappers down to the command that really runs; records its use. Returns its words. */
  private unwrap(words: WordValue[], assignments: WordValue[], cmd: SimpleCommand): WordValue[] {
    const forms: WordValue[][] = [];
    let current = words;
    let prefix = assignments;
    let blocked: string | undefined;
    for (let depth = 0; depth < maxUnwrap; depth++) {
      forms.push(current);
      const u = unwrapCommand(current);
      if (!u) break;
      if (u.kind === 'command') {
        for (const w of u.writes) this.addWrite(w, w ?? '(unknown file)');
        prefix = [...prefix, ...u.assignments];
        current = u.words;
        continue;
      }
      if (u.kind === 'self') {
        for (const w of u.writes) this.addWrite(w, w ?? '(unknown file)');
        for (const inner of u.inner) this.unwrap(inner, [], cmd);
        break;
      }
      if (u.kind === 'blocked') {
        blocked = u.reason;
        if (u.inner) {
          current = u.inner;
          continue;
        }
        break;
      }
      const source = u.kind === 'script' ? u.source : this.stdinScript(cmd.redirects);
      if (source === null) {
        blocked = u.kind === 'script' ? 'the script it runs is not known until it runs' : 'it runs commands from its input, which Keel cannot see';
        break;
      }
      this.nested(source, forms);
      // The wrapper needs no rule of its own, unless assignments change what the script sees.
      const wrapper: CommandUse = prefix.length > 0 ? { words: [...prefix, ...current], forms } : { forms };
      if (blocked) wrapper.blocked = blocked;
      this.uses.push(wrapper);
      return current;
    }
    for (const target of fileWriteTargets(current) ?? []) this.addWrite(target, target ?? '(unknown file)');
    const use: CommandUse = { words: [...prefix, ...current], forms };
    if (!blocked && variableNameBuiltins.has(current[0] ?? '') && current.some((w) => w !== null && hasSubscriptExpansion(w))) {
      blocked = 'an array subscript in its arguments could run commands';
    }
    if (blocked) use.blocked = blocked;
    this.uses.push(use);
    return current;
  }

  /** The commands a shell reads from a here-doc or here-string; null when they come from elsewhere. */
  private stdinScript(redirects: Redirect[]): WordValue {
    const input = redirects.filter((r) => (r.fd ?? 0) === 0 && (stdinOps.has(r.op) || r.op === '<' || r.op === '<&' || r.op === '<>')).at(-1);
    if (!input || !stdinOps.has(input.op)) return null;
    if (input.hereDoc) return staticValue(input.hereDoc.body);
    return staticValue(input.target);
  }

  private nested(source: string, forms: WordValue[][]): void {
    let script: Script;
    try {
      script = parseShell(source);
    } catch (err) {
      if (!(err instanceof ShellParseError)) throw err;
      this.uses.push({ forms, blocked: `the script it runs cannot be analysed: ${err.message}` });
      return;
    }
    this.script(script);
  }

  /**
   * `cd` moves the commands after it; the folder it may leave from stays possible (cd can
   * fail). `source` is the command's own words, absent when it ran through a wrapper.
   */
  private trackCwd(words: WordValue[], source: Word[] | undefined): void {
    const name = words[0];
    if (name === 'pushd' || name === 'popd' || name === 'source' || name === '.') {
      this.cwds = undefined;
      return;
    }
    if (name !== 'cd' || !this.cwds) return;
    let i = 1;
    while (i < words.length && /^-[LPe@]+$/.test(words[i] ?? '')) i++;
    if (words[i] === '--') i++;
    let target: WordValue = this.home;
    if (i < words.length) target = source ? pathValue(source[i], this.home) : null;
    if (target === null || target === '-' || this.loopDepth > 0) {
      this.cwds = undefined;
      return;
    }
    const next = new Set(this.cwds);
    for (const c of this.cwds) next.add(resolve(c, target));
    this.cwds = next.size > maxCwds ? undefined : next;
  }
}

/** The command as one line, for messages. */
export function shownCommand(words: readonly WordValue[]): string {
  return words.map((w) => shownWord(w)).join(' ');
}
