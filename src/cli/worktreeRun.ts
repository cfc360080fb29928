import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import { keelHome } from '../core/paths';
import { createWorktree, defaultWorktreeName, defaultWorktreeRoot, repoRoot } from '../core/worktrees/gitWorktree';
import type { Worktree } from '../core/worktrees/gitWorktree';
import type { RunArgs } from './cliArgs';
import type { CliIo } from './cliIo';

/**
 * `--worktree`: makes the run's worktree and returns the folder the run works in. The person's
 * checkout (`--cwd`) is only read; what the agent changes stays on the worktree's branch.
 */
export async function worktreeFor(a: RunArgs, io: CliIo): Promise<Worktree | undefined> {
  if (a.worktree === undefined) return undefined;
  const dir = resolve(a.cwd);
  const root = a.worktreeDir ?? defaultWorktreeRoot(keelHome(io.env), await repoRoot(dir));
  const wt = await createWorktree({ dir, root, name: a.worktree || defaultWorktreeName() });
  if (a.output === 'stream-json') {
    io.stdout(`${JSON.stringify({ type: 'worktree', path: wt.path, branch: wt.branch, base: wt.base })}\n`);
  } else {
    io.stderr(`keel: ${l10n.t('working in {0} on branch {1} (from {2}); your checkout is not touched', wt.path, wt.branch, wt.base.slice(0, 12))}\n`);
  }
  return wt;
}
