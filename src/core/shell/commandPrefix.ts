import type { WordValue } from './commandOptions';
import { quoteWord } from './commandPatterns';

/** Tools whose first argument is a subcommand: "always allow" keeps `git status`, not all of git. */
const subcommandTools = new Set([
  'git', 'npm', 'yarn', 'pnpm', 'bun', 'deno', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'helm', 'gh',
  'dotnet', 'pip', 'pip3', 'poetry', 'uv', 'rustup', 'brew', 'terraform', 'make', 'mvn', 'gradle', 'swift',
]);
/** Subcommands that run a named script: the script's name is part of the prefix (`npm run build`). */
const runSubcommands = new Set(['run', 'run-script', 'exec', 'x']);
const maxGenericWords = 3;
const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * The prefix "always allow" records for one command: assignments, then the tool and its
 * subcommand (`git status`, `npm run build`), or for other commands the name and its first
 * arguments up to the first that is not an option (`ls -la`, `rm -rf build`, `python -m pytest`).
 * Undefined when the words it would need are not known before running.
 */
export function suggestedPrefix(words: readonly WordValue[]): string | undefined {
  let start = 0;
  while (start < words.length && words[start] !== null && assignment.test(words[start] ?? '')) start++;
  const name = words[start];
  if (name === undefined || name === null) return undefined;
  const chosen = words.slice(0, start + 1);
  const rest = words.slice(start + 1);
  if (subcommandTools.has(name) && rest.length > 0) {
    const sub = rest[0];
    if (sub === null) return undefined;
    if (sub.startsWith('-')) {
      // Global options first (`git -C dir status`): only the exact command is safe to keep.
      chosen.push(...rest);
    } else {
      chosen.push(sub);
      if (runSubcommands.has(sub) && rest.length > 1 && rest[1] !== null && !rest[1].startsWith('-')) chosen.push(rest[1]);
    }
  } else {
    for (const word of rest) {
      if (chosen.length - start >= maxGenericWords) break;
      chosen.push(word);
      if (word === null || !word.startsWith('-')) break;
    }
  }
  if (chosen.some((w) => w === null)) return undefined;
  return (chosen as string[]).map(quoteWord).join(' ');
}
