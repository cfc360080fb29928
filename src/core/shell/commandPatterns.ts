import * as l10n from '@vscode/l10n';
import { basename } from 'node:path';
import type { WordValue } from './commandOptions';
import { ShellParseError } from './shellCursor';
import { parseShell } from './shellParser';
import { staticValue } from './wordValue';

/**
 * A rule's words: `npm test` is ["npm", "test"]. Written as shell words, so `git commit -m 'x y'`
 * is four words. Returns a problem instead when the text is not one plain command.
 */
export function parsePattern(pattern: string): string[] | { problem: string } {
  if (pattern.trim() === '') return { problem: l10n.t('a command pattern cannot be empty') };
  let script;
  try {
    script = parseShell(pattern);
  } catch (err) {
    if (err instanceof ShellParseError) return { problem: l10n.t('"{0}" is not a command Keel can read: {1}', pattern, err.message) };
    throw err;
  }
  const only = script.items.length === 1 ? script.items[0] : undefined;
  const command = only && !only.background && only.rest.length === 0 && only.first.commands.length === 1 ? only.first.commands[0] : undefined;
  if (!command || command.type !== 'simple' || command.redirects.length > 0 || only?.first.negated || only?.first.timed) {
    return { problem: l10n.t('"{0}" must be one command with its arguments (no ;, &&, |, redirections)', pattern) };
  }
  const words: string[] = [];
  for (const a of command.assignments) {
    const value = staticValue(a.value);
    if (value === null) return { problem: l10n.t('"{0}" must be plain words (no $, globs or substitutions)', pattern) };
    words.push(`${a.name}${a.append ? '+=' : '='}${value}`);
  }
  for (const w of command.words) {
    const value = staticValue(w);
    if (value === null) return { problem: l10n.t('"{0}" must be plain words (no $, globs or substitutions)', pattern) };
    words.push(value);
  }
  return words;
}

/** Why a pattern is unusable, or undefined when it is fine (for config validation). */
export function patternProblem(pattern: string): string | undefined {
  const parsed = parsePattern(pattern);
  return Array.isArray(parsed) ? undefined : parsed.problem;
}

/** Whether the words start with the pattern, word for word: `npm test` fits `npm test -- -w`, not `npm testx`. */
export function startsWithPattern(words: readonly WordValue[], pattern: readonly string[]): boolean {
  if (pattern.length === 0 || words.length < pattern.length) return false;
  return pattern.every((p, i) => words[i] === p);
}

/** Deny rules also see through paths: `rm` matches `/bin/rm` and `./rm`. */
export function deniedBy(words: readonly WordValue[], pattern: readonly string[]): boolean {
  if (pattern.length === 0 || words.length < pattern.length) return false;
  const name = words[0];
  if (name === null) return false;
  if (name !== pattern[0] && basename(name) !== pattern[0]) return false;
  return pattern.every((p, i) => i === 0 || words[i] === p);
}

/** Shell-quotes a word so that parsePattern reads it back unchanged. */
export function quoteWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
