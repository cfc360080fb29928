import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../chat/chatController';
import type { WorktreeCores } from '../../chat/sessions/worktreeCores';
import { errorMessage } from '../../core/errors';
import { runGit } from '../../core/llmsContext';
import { keelHome } from '../../core/paths';
import type { Worktree } from '../../core/worktrees';
import { checkWorktreeName, createWorktree, defaultWorktreeName, defaultWorktreeRoot } from '../../core/worktrees';
import { removeWorktreeFolder } from '../../core/worktrees';
import type { LogFn } from '../../protocol/log';
import type { WorktreeReview } from './worktreeReview';
import { modalWorktreePrompts } from './worktreePrompts';
import type { WorktreePrompts } from './worktreePrompts';

export interface WorktreeChatsDeps {
  controller: ChatController;
  cores: WorktreeCores;
  review: WorktreeReview;
  log: LogFn;
  env: Record<string, string | undefined>;
  /** Shows the chat view. */
  reveal(): Promise<void>;
}

/**
 * Conversations in git worktrees, as the person starts and ends them: "New Chat in Worktree"
 * (and `/worktree`), Review changes, Keep branch, Discard, and what deleting such a
 * conversation does to its worktree. Uncommitted work is never removed without a modal yes.
 */
export class WorktreeChats {
  /** The questions cleanup asks (modal dialogs; the extension's tests answer them through a hook). */
  prompts: WorktreePrompts = modalWorktreePrompts;

  constructor(private readonly deps: WorktreeChatsDeps) {}

  /** `name` undefined: asked for (empty for a made-up one); given (the composer's `/worktree`): used as is. */
  async newChat(name?: string): Promise<Worktree | undefined> {
    let chosen = name;
    if (chosen === undefined) {
      chosen = await vscode.window.showInputBox({
        title: vscode.l10n.t('New Chat in Worktree'),
        prompt: vscode.l10n.t('A name for the worktree and its branch keel/NAME (leave empty for one made from the time)'),
        validateInput: (value) => (value.trim() === '' || isName(value.trim()) ? undefined : vscode.l10n.t('Use 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit.')),
      });
      if (chosen === undefined) return undefined;
    }
    chosen = chosen.trim();
    if (chosen !== '' && !isName(chosen)) throw new Error(vscode.l10n.t('"{0}" cannot name a worktree: use 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit.', chosen));
    const dir = await this.checkoutFolder();
    const top = await runGit(dir, ['rev-parse', '--show-toplevel']);
    if (!top.ok) {
      throw new Error(top.missing ? vscode.l10n.t('A worktree needs git, which is not installed or not on PATH.') : vscode.l10n.t('A worktree needs a git repository, and {0} is not in one.', dir));
    }
    const repo = top.stdout.trim();
    const worktree = await createWorktree({ dir, root: this.folderFor(repo), name: chosen || defaultWorktreeName() });
    this.deps.log('info', `worktree ${worktree.branch} made at ${worktree.path} from ${worktree.base.slice(0, 12)}`);
    await this.deps.reveal();
    await this.deps.controller.sessions.newSession({ core: this.deps.cores.sourceFor(worktree), branch: worktree.branch });
    this.deps.controller.showPanel('chat');
    return worktree;
  }

  /** The worktree of the conversation in view, or a clear error. */
  current(): Worktree {
    const worktree = this.inView();
    if (!worktree) throw new Error(vscode.l10n.t('The conversation in view does not work in a worktree. Start one with "Keel: New Chat in Worktree".'));
    return worktree;
  }

  review(path?: string): Promise<string[]> {
    return this.deps.review.review(this.current(), path);
  }

  /** Leaves the branch for a merge or pull request; the folder goes unless it holds uncommitted work the person keeps. */
  async keepBranch(): Promise<boolean> {
    const worktree = this.current();
    const outcome = await this.remove(worktree, false);
    if (outcome === 'removed') {
      void vscode.window.showInformationMessage(vscode.l10n.t('The branch {0} is kept for you to merge or open a pull request; its worktree folder was removed.', worktree.branch));
    }
    return outcome === 'removed';
  }

  /** Removes the worktree, and its branch when the person chooses so. */
  async discard(): Promise<boolean> {
    const worktree = this.current();
    const answer = await this.prompts.discard(worktree);
    if (answer === undefined) return false;
    return (await this.remove(worktree, answer === 'folderAndBranch')) === 'removed';
  }

  /** A deleted conversation's worktree: removed as Discard does, after asking. */
  async afterDelete(worktree: Worktree): Promise<void> {
    const answer = await this.prompts.afterDelete(worktree);
    if (answer === undefined) return;
    try {
      await this.remove(worktree, answer === 'folderAndBranch');
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Keel: {0}', errorMessage(err)));
    }
  }

  private async remove(worktree: Worktree, deleteBranch: boolean): Promise<'removed' | 'kept'> {
    if (this.deps.controller.busyOn(this.deps.cores.sourceFor(worktree))) {
      throw new Error(vscode.l10n.t('Keel is working in the worktree on {0}: stop it or let it finish, then remove the worktree.', worktree.branch));
    }
    const inView = this.inView()?.path === worktree.path;
    const outcome = await removeWorktreeFolder(worktree, {
      deleteBranch,
      confirm: (files) => this.prompts.loseUncommitted(worktree, files),
    });
    if (outcome === 'kept') return outcome;
    this.deps.log('info', `worktree ${worktree.branch} removed${deleteBranch ? ' with its branch' : ''}`);
    // The conversation can no longer run there: the chat starts a new one in the workspace.
    if (inView) await this.deps.controller.sessions.newSession();
    await this.deps.cores.forget(worktree);
    return outcome;
  }

  private inView(): Worktree | undefined {
    return this.deps.cores.worktreeOf(this.deps.controller.coreInView());
  }

  /** Where a worktree is made from: the checkout of the worktree in view, else the current project's folder. */
  private async checkoutFolder(): Promise<string> {
    const inView = this.inView();
    if (inView) return inView.repo;
    const { ctx } = await this.deps.controller.coreInView().get();
    const name = this.deps.controller.currentProjectName(ctx);
    return (ctx.workspace.folders.find((f) => f.name === name) ?? ctx.workspace.current).path;
  }

  /** `keel.worktrees.folder` from the person's own settings only: a workspace must not move where Keel writes. */
  private folderFor(repo: string): string {
    const set = vscode.workspace.getConfiguration('keel').inspect<string>('worktrees.folder')?.globalValue?.trim();
    if (!set) return defaultWorktreeRoot(keelHome(this.deps.env), repo);
    const expanded = set === '~' ? homedir() : set.startsWith('~/') ? join(homedir(), set.slice(2)) : set;
    if (!isAbsolute(expanded)) throw new Error(vscode.l10n.t('The setting keel.worktrees.folder must be an absolute path; it is "{0}".', set));
    // Worktrees of several repositories share the folder: each repository gets its own below it.
    return join(resolve(expanded), repo.split(/[\\/]/).filter(Boolean).pop() ?? 'repo');
  }
}

function isName(name: string): boolean {
  try {
    checkWorktreeName(name);
    return true;
  } catch {
    // checkWorktreeName says why in English for the CLI; the input box has its own words.
    return false;
  }
}
