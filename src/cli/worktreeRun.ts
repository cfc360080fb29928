import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import * as l10n from '@vscode/l10n';
import { KeelError } from '../core/errors';
import { keelHome } from '../core/paths';
import { SessionStore } from '../core/session';
import { createWorktree, defaultWorktreeName, defaultWorktreeRoot, repoRoot } from '../core/worktrees';
import type { Worktree } from '../core/worktrees';
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

/**
 * `--session ID` of a conversation that worked in a worktree: it goes on there, not in the
 * checkout. Only the checkout's store is read (without its lock); the run opens it for writing.
 */
export function recordedWorktree(checkout: string, sessionId: string, env: Record<string, string | undefined>): Worktree | undefined {
  const store = new SessionStore({ home: keelHome(env), workspace: { root: checkout }, onWarning: () => {} });
  let recorded: Worktree | undefined;
  try {
    const stored = store.open(sessionId, { readOnly: true });
    try {
      recorded = stored.config().worktree;
    } finally {
      stored.close();
    }
  } catch {
    // Not a session of this checkout: opening it for the run says so in its own words.
    return undefined;
  }
  if (recorded && !existsSync(recorded.path)) {
    throw new KeelError('config', l10n.t('This conversation worked in the worktree {0} (branch {1}), which was removed; it cannot go on there.', recorded.path, recorded.branch));
  }
  return recorded;
}

/**
 * The Context option of a run in a worktree: paths are the worktree's, while the session is kept
 * with the checkout's, so VS Code lists it in the person's workspace with its branch.
 */
export function worktreeContext(tree: Worktree, checkout: string): { tree: Worktree; sessionsOf: { root: string } } {
  return { tree, sessionsOf: { root: checkout } };
}
