import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Workspace } from '../workspace/workspace';
import { realpathAllowMissing } from '../workspace/realpathAllowMissing';
import { analyzeCommand, shownCommand } from './commandAnalysis';
import type { CommandAnalysis, CommandUse, WriteTarget } from './commandAnalysis';
import { deniedBy, parsePattern, startsWithPattern } from './commandPatterns';
import { suggestedPrefix } from './commandPrefix';
import { notReadOnly } from './readOnlyCommands';
import { ShellParseError } from './shellCursor';
import { errorCode } from '../errorCode';

/** Prefix rules for commands (`keel.commands.allow` / `deny`, config `commands`, session allowances). */
export interface CommandRules {
  /** A command line runs without asking when every command in it starts with one of these. */
  allow: readonly string[];
  /** A command line with any command starting with one of these always asks (but in yolo); beats allow. */
  deny: readonly string[];
}

export interface CommandCheck {
  /** Every command matches an allow rule, none matches a deny rule, and nothing is written outside the workspace. */
  allowed: boolean;
  /** Why the person must decide in every mode but yolo: a deny match, or a write outside the workspace. */
  insist?: string;
  /** Why the rules do not allow it (when they do not). */
  reason?: string;
  /** What "always allow" would add: a prefix per command no rule allows yet; absent when that could not help. */
  suggestions?: string[];
  /** Real paths inside the workspace the line writes through redirections (for protected paths). */
  writesInside: string[];
  /**
   * Why the line is not known to only read (a command or option outside Keel's small table of
   * read-only ones); absent when it is. Without an OS sandbox, an allowed line with this asks.
   */
  notReadOnly?: string;
}

export interface CheckEnv {
  /** The folder the command starts in (real, inside the workspace). */
  cwd: string;
  workspace: Workspace;
  home?: string;
}

/** Longer command lines are not analysed (and so always ask). */
export const maxCheckedCommandChars = 100_000;

/** Most distinct files a command line may write through redirections and still be checked. */
const maxCheckedWrites = 200;

/** Writes that go nowhere or to the command's own output. */
const harmlessTargets = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);

/**
 * Checks a command line against the rules: parsed with Keel's shell parser, every command
 * it would start (through `&&`, pipes, substitutions, `bash -c`, `eval`, wrappers...) must
 * start with an allow prefix, no deny prefix may match, and no redirection may write
 * outside the workspace. Anything that cannot be analysed is not allowed.
 */
export async function checkCommand(command: string, rules: CommandRules, env: CheckEnv): Promise<CommandCheck> {
  if (command.length > maxCheckedCommandChars) {
    return { allowed: false, reason: `the command is longer than ${maxCheckedCommandChars} characters, too long to check`, writesInside: [] };
  }
  let analysis: CommandAnalysis;
  try {
    analysis = analyzeCommand(command, { cwd: env.cwd, home: env.home ?? homedir() });
  } catch (err) {
    if (!(err instanceof ShellParseError)) throw err;
    return { allowed: false, reason: `Keel cannot analyse this command (${err.message})`, writesInside: [] };
  }
  const allow = compile(rules.allow);
  const deny = compile(rules.deny);
  const writes = await resolveWrites(analysis.writes, env.workspace);

  const denied = analysis.uses.flatMap((u) => deny.filter((p) => denies(u, p)).map((p) => p.join(' ')));
  let insist: string | undefined;
  if (denied.length > 0) insist = `matches the deny rule "${denied[0]}"`;
  else if (writes.outside.length > 0) insist = writes.outside[0];

  const unmatched = analysis.uses.filter((u) => u.blocked !== undefined || (u.words !== undefined && !allow.some((p) => startsWithPattern(u.words ?? [], p))));
  let reason: string | undefined;
  if (analysis.uses.length === 0) reason = 'there is no command to check';
  else if (unmatched.length > 0) reason = describeUnmatched(unmatched[0]);

  const out: CommandCheck = { allowed: insist === undefined && reason === undefined, writesInside: writes.inside };
  const notRead = readOnlyProblem(analysis.uses);
  if (notRead !== undefined) out.notReadOnly = notRead;
  if (insist !== undefined) out.insist = insist;
  if (reason !== undefined) out.reason = reason;
  if (insist === undefined && unmatched.length > 0) {
    const prefixes = unmatched.map((u) => (u.blocked === undefined && u.words ? suggestedPrefix(u.words) : undefined));
    if (prefixes.every((p) => p !== undefined)) out.suggestions = [...new Set(prefixes)];
  }
  return out;
}

/** The first command of the line not known to only read; a script wrapper (`bash -c`) is judged by its own commands. */
function readOnlyProblem(uses: CommandUse[]): string | undefined {
  if (uses.length === 0) return 'there is no command to check';
  for (const use of uses) {
    if (use.blocked !== undefined) return use.blocked;
    if (use.words === undefined) continue;
    const problem = notReadOnly(use.words);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function compile(patterns: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const p of patterns) {
    const words = parsePattern(p);
    // Invalid patterns are refused where they are configured; here they simply match nothing.
    if (Array.isArray(words)) out.push(words);
  }
  return out;
}

function denies(use: CommandUse, pattern: string[]): boolean {
  return use.forms.some((f) => deniedBy(f, pattern)) || (use.words !== undefined && startsWithPattern(use.words, pattern));
}

function describeUnmatched(use: CommandUse): string {
  if (use.blocked !== undefined) return `\`${shownCommand(use.forms[0] ?? [])}\` cannot be allowed by a rule: ${use.blocked}`;
  const shown = shownCommand(use.words ?? use.forms[0] ?? []);
  if (shown === '') return 'a redirection without a command is not allowed by any rule';
  return `\`${shown}\` is not allowed by any rule`;
}

async function resolveWrites(targets: WriteTarget[], workspace: Workspace): Promise<{ inside: string[]; outside: string[] }> {
  const inside: string[] = [];
  const outside: string[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    if (!t.paths) {
      outside.push(`writes to ${t.shown}, which is not known before the command runs`);
      continue;
    }
    for (const path of t.paths) {
      if (isHarmless(resolve(path)) || seen.has(path)) continue;
      seen.add(path);
      if (seen.size > maxCheckedWrites) {
        outside.push(`writes to more than ${maxCheckedWrites} files, too many to check`);
        return { inside, outside };
      }
      let real: string;
      try {
        real = await realpathAllowMissing(path, path);
      } catch (err) {
        outside.push(`writes to ${t.shown}, which cannot be resolved (${err instanceof Error ? err.message : String(err)})`);
        continue;
      }
      if (isHarmless(real)) continue;
      if (workspace.folderOf(real)) inside.push(real);
      else {
        outside.push(`writes outside the workspace: ${t.shown} (${real})`);
        continue;
      }
      // A folder the command line creates first may turn out to be a link to anywhere.
      if (!(await folderExists(dirname(real)))) outside.push(`writes to ${t.shown}, in a folder that does not exist yet`);
    }
  }
  return { inside, outside };
}

/** Whether the folder is there now (and visible). */
async function folderExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (err) {
    const code = errorCode(err);
    // Missing, or hidden from Keel: either way nothing can be concluded about where it leads.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'ELOOP') return false;
    throw err;
  }
}

function isHarmless(path: string): boolean {
  return harmlessTargets.has(path) || /^\/dev\/fd\/[0-9]+$/.test(path) || /^\/proc\/self\/fd\/[0-9]+$/.test(path);
}
