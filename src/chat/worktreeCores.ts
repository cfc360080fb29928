import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import * as l10n from '@vscode/l10n';
import { KeelError } from '../core/errors';
import type { Worktree } from '../core/worktrees/gitWorktree';
import type { LogFn } from '../protocol/log';
import type { CoreAccess } from './coreAccess';
import { CoreLoader } from './coreLoader';
import type { BuiltCore, CoreInputs } from './coreLoader';

/** What the session actions need to know of worktree conversations. */
export interface WorktreeSessionHooks {
  /** The conversation starting now works in this worktree (undefined: in the workspace). */
  select(worktree: Worktree | undefined): Promise<void>;
  /** A stored conversation is about to open: it works where its log says it does. */
  selectFor(sessionId: string): Promise<void>;
  /** A conversation that worked in this worktree was deleted: what becomes of the worktree. */
  deleted(worktree: Worktree): Promise<void>;
}

export interface WorktreeCoresOptions {
  /** The workspace's core (the person's checkout). */
  workspace: CoreAccess;
  /** What building a core needs, as the workspace's core got it. */
  inputs: CoreInputs;
  busy(): boolean;
  log: LogFn;
  /** The conversation in view now works in this worktree, or (undefined) in the workspace. */
  onSelect?(worktree: Worktree | undefined): void;
}

/**
 * The core a conversation runs on: the workspace's, or one rooted in the git worktree the
 * conversation works in (one per worktree, built on first use). Its folder is the worktree, so
 * every path check is scoped to it; its sessions are the workspace's. The window's MCP servers
 * run in the person's checkout, so a worktree's core has none. The chat holds one core at a
 * time: this switch follows the conversation in view (`sourceFor` is the per-conversation form).
 */
export class WorktreeCores implements CoreAccess {
  private active: Worktree | undefined;
  private readonly loaders = new Map<string, CoreLoader>();

  constructor(private readonly opts: WorktreeCoresOptions) {}

  /** The worktree of the conversation in view, if it works in one. */
  get worktree(): Worktree | undefined {
    return this.active;
  }

  get(): Promise<BuiltCore> {
    return this.active ? this.sourceFor(this.active).then((source) => source.get()) : this.opts.workspace.get();
  }

  peek(): BuiltCore | undefined {
    return this.active ? this.loaders.get(this.active.path)?.peek() : this.opts.workspace.peek();
  }

  async select(worktree: Worktree | undefined): Promise<void> {
    if (worktree && !existsSync(worktree.path)) {
      throw new KeelError('config', l10n.t('This conversation worked in the worktree {0} (branch {1}), which was removed; it cannot go on there.', worktree.path, worktree.branch));
    }
    this.active = worktree;
    this.opts.onSelect?.(worktree);
  }

  /** Opens nothing for writing: the log is read for its worktree record only. */
  async selectFor(sessionId: string): Promise<void> {
    const { ctx } = await this.opts.workspace.get();
    const stored = ctx.sessions.open(sessionId, { readOnly: true });
    let recorded: Worktree | undefined;
    try {
      recorded = stored.config().worktree;
    } finally {
      stored.close();
    }
    await this.select(recorded);
  }

  /** The core source of one worktree's conversations. */
  async sourceFor(worktree: Worktree): Promise<CoreLoader> {
    const known = this.loaders.get(worktree.path);
    if (known) return known;
    // The workspace's own Context keys its sessions by its first folder (or its workspace file).
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
      this.opts.busy,
      this.opts.log,
    );
    this.loaders.set(worktree.path, loader);
    return loader;
  }

  invalidate(reason: string): void {
    for (const loader of this.loaders.values()) loader.invalidate(reason);
  }

  /** The worktree is gone: its core is shut down; the conversation in view falls back to the workspace. */
  async forget(worktree: Worktree): Promise<void> {
    if (this.active?.path === worktree.path) await this.select(undefined);
    const loader = this.loaders.get(worktree.path);
    this.loaders.delete(worktree.path);
    await loader?.dispose();
  }

  async dispose(): Promise<void> {
    const loaders = [...this.loaders.values()];
    this.loaders.clear();
    await Promise.all(loaders.map((l) => l.dispose()));
  }
}
