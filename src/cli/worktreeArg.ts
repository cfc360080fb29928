import * as l10n from '@vscode/l10n';
import { KeelError } from '../core/errors';
import { isWorktreeName } from '../core/worktrees';

/** A bare `--worktree` (no `=`), as parseArgs sees it: an empty value, so a prompt after it is never taken for one. */
export function bareWorktreeAsEmpty(argv: string[]): string[] {
  return argv.map((a) => (a === '--worktree' ? '--worktree=' : a));
}

interface ArgToken {
  kind: string;
  index: number;
  name?: string;
  value?: string;
}

/**
 * `--worktree NAME PROMPT`: the word after a bare `--worktree` names the worktree when it can be a
 * name and a prompt still follows it. A word that cannot be a name (it has spaces, say) stays the
 * prompt and the worktree gets a made-up name. A name-like word with nothing after it could be
 * either, so it is refused with how to write each, never guessed.
 * Returns the name taken (or undefined) and the positionals without it.
 */
export function worktreeNameAfterFlag(
  argv: string[],
  tokens: readonly ArgToken[],
  positionals: string[],
  usageError: (message: string) => KeelError,
): { name?: string; positionals: string[] } {
  const flag = tokens.find((t) => t.kind === 'option' && t.name === 'worktree' && argv[t.index] === '--worktree');
  if (!flag) return { positionals };
  const positionalTokens = tokens.filter((t) => t.kind === 'positional');
  const next = positionalTokens.find((t) => t.index === flag.index + 1);
  // The first positional is the command ("run"), never a name.
  if (!next || next === positionalTokens[0]) return { positionals };
  const word = argv[next.index];
  if (!isWorktreeName(word)) return { positionals };
  const at = positionalTokens.indexOf(next);
  const rest = positionals.filter((_, i) => i !== at);
  if (rest.length < 2) {
    throw usageError(
      l10n.t(
        'Is "{0}" the worktree\'s name or the prompt? Write --worktree={0} "PROMPT" (or --worktree {0} "PROMPT") to name the worktree, or --worktree -- "{0}" to make it the prompt.',
        word,
      ),
    );
  }
  return { name: word, positionals: rest };
}
