import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import * as l10n from '@vscode/l10n';
import { KeelError } from '../../core/errors';
import type { Worktree } from '../../core/worktrees';
import type { LogFn } from '../../protocol/log';
import type { CoreAccess } from '../runtime/coreAccess';
import { CoreLoader } from '../runtime/coreLoader';
import type { CoreInputs } from '../runtime/coreLoader';

/** What the session actions need to know of worktree conversations. */
export interface WorktreeSessionHooks {
  /** The core a stored conversation runs on: its worktree's when its log records one (undefined: the window's). */
  coreFor(sessionId: string): Promise<CoreAccess | undefined>;
  /** A conversation that worked in this worktree was deleted: what becomes of the worktree. */
  deleted(worktree: Worktree): Promise<void>;
}

export interface WorktreeCoresOptions {
  /** The window's core (the person's checkout): where sessions are listed and opened. */
  workspace: CoreAccess;
  /** What building a core needs, as the window's core got it. */
  inputs: CoreInputs;
  log: LogFn;
}

/**
 * The cores of worktree conversations, one per worktree, built on first use: its folder is the
 * worktree, so every path check is scoped to it; its sessions are the window's workspace's.
 * The window's MCP servers run in the person's checkout, so a worktree's core has none.
 */
export class WorktreeCores {
  private readonly loaders = new Map<string, { worktree: Worktree; loader: CoreLoader }>();

  constructor(private readonly opts: WorktreeCoresOptions) {}

  /** The core source of one worktree's conversations. */
  sourceFor(worktree: Worktree): CoreLoader {
    const known = this.loaders.get(worktree.path);
    if (known) return known.loader;
    // The window's Context keys its sessions by its first folder (or its workspace file).
    const first = this.opts.inputs.folders()[0];
    if (!first) throw new KeelError('config', l10n.t('Keel works on the files of a folder: open a folder or a workspace first.'));
    const workspaceFile = this.opts.inputs.workspaceFile();
    const sessionsOf = { root: first.path, ...(workspaceFile ? { workspaceFile } : {}) };
    const { mcp: _windowServers, ...inputs } = this.opts.inputs;
    const loader = new CoreLoader(
      {
        ...inputs,
        folders: () => [{ path: worktree.path, name: basename(worktree.path) }],
        workspaceFile: () => undefined,
        worktree: () => ({ tree: worktree, sessionsOf }),
      },
      this.opts.log,
    );
    this.loaders.set(worktree.path, { worktree, loader });
    return loader;
  }

  /** The worktree a core belongs to (undefined: not a worktree's). */
  worktreeOf(core: CoreAccess): Worktree | undefined {
    for (const { worktree, loader } of this.loaders.values()) if (loader === core) return worktree;
    return undefined;
  }

  /** Reads the log for its worktree record only (nothing is opened for writing). */
  async coreFor(sessionId: string): Promise<CoreAccess | undefined> {
    const { ctx } = await this.opts.workspace.get();
    const stored = ctx.sessions.open(sessionId, { readOnly: true });
    let recorded: Worktree | undefined;
    try {
      recorded = stored.config().worktree;
    } finally {
      stored.close();
    }
    if (!recorded) return undefined;
    if (!existsSync(recorded.path)) {
      throw new KeelError('config', l10n.t('This conversation worked in the worktree {0} (branch {1}), which was removed; it cannot go on there.', recorded.path, recorded.branch));
    }
    return this.sourceFor(recorded);
  }

  invalidate(reason: string): void {
    for (const { loader } of this.loaders.values()) loader.invalidate(reason);
  }

  /** The worktree is gone: its core is shut down. */
  async forget(worktree: Worktree): Promise<void> {
    const known = this.loaders.get(worktree.path);
    this.loaders.delete(worktree.path);
    await known?.loader.dispose();
  }

  async dispose(): Promise<void> {
    const loaders = [...this.loaders.values()];
    this.loaders.clear();
    await Promise.all(loaders.map(({ loader }) => loader.dispose()));
  }
}
