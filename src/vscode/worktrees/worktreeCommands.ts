import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { KeelRuntime } from '../keelRuntime';
import type { WorktreeChats } from './worktreeChats';

export interface WorktreeCommandDeps {
  log: vscode.LogOutputChannel;
  /** Loads the runtime if it is not loaded yet. */
  runtime(): Promise<KeelRuntime>;
}

/**
 * The worktree commands of the palette and the chat's header. Each returns what it did (the
 * worktree made, the diffs opened, whether the worktree went), so callers and tests can follow.
 */
export function registerWorktreeCommands(deps: WorktreeCommandDeps): vscode.Disposable[] {
  const command = <T>(id: string, run: (chats: WorktreeChats, ...args: unknown[]) => Promise<T>): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run((await deps.runtime()).worktreeChats, ...args);
      } catch (err) {
        deps.log.error(`${id} failed: ${errorMessage(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Keel: {0}', errorMessage(err)));
        return undefined;
      }
    });
  const text = (arg: unknown): string | undefined => (typeof arg === 'string' ? arg : undefined);
  return [
    command('keel.newChatInWorktree', (chats, name) => chats.newChat(text(name))),
    command('keel.reviewWorktreeChanges', (chats, path) => chats.review(text(path))),
    command('keel.keepWorktreeBranch', (chats) => chats.keepBranch()),
    command('keel.discardWorktree', (chats) => chats.discard()),
  ];
}
