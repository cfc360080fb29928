import * as vscode from 'vscode';
import { guardedCommand } from '../guardedCommand';
import type { KeelRuntime } from '../keelRuntime';
import { prefillChat } from '../editor/chatPrefill';
import { gitRepositoryFor } from './gitApi';

export interface ScmCommandDeps {
  log: vscode.LogOutputChannel;
  runtime(): Promise<KeelRuntime>;
}

const FOCUS_VIEW = 'keel.chat.focus';

/**
 * Keel in source control: "Generate Commit Message" streams a message for the staged changes
 * (or all of them when nothing is staged) into the commit box, written by the small model in
 * the repository's recent style; "Review Changes with Keel" opens a plan-mode conversation with
 * the uncommitted diff, ready to send. Neither commits, stages or approves anything.
 */
export function registerScmCommands(deps: ScmCommandDeps): vscode.Disposable[] {
  const command = (id: string, run: (arg: unknown) => Promise<void>): vscode.Disposable => guardedCommand(deps.log, id, run);
  let writing = false;

  return [
    command('keel.scm.generateCommitMessage', async (arg) => {
      if (writing) return;
      const repository = await gitRepositoryFor(arg);
      if (!repository) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Keel found no git repository in this window.'));
        return;
      }
      writing = true;
      try {
        const runtime = await deps.runtime();
        const typed = repository.inputBox.value;
        const outcome = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.SourceControl, title: vscode.l10n.t('Keel is writing a commit message…') },
          () => runtime.commitMessage(repository.rootUri.fsPath, (soFar) => (repository.inputBox.value = soFar)),
        );
        switch (outcome.kind) {
          case 'written':
            repository.inputBox.value = outcome.message;
            return;
          case 'nothing':
            repository.inputBox.value = typed;
            void vscode.window.showInformationMessage(vscode.l10n.t('There are no changes to write a commit message for.'));
            return;
          case 'noModel':
            // The chat's first-run panel says how to set a model up.
            await vscode.commands.executeCommand(FOCUS_VIEW);
            runtime.controller.showPanel('chat');
            return;
          case 'failed':
            repository.inputBox.value = typed;
            void vscode.window.showErrorMessage(vscode.l10n.t('Keel could not write a commit message: {0}', outcome.error));
            return;
        }
      } finally {
        writing = false;
      }
    }),
    command('keel.scm.reviewChanges', async (arg) => {
      const repository = await gitRepositoryFor(arg);
      const runtime = await deps.runtime();
      const target = repository ? await runtime.reviewTarget(repository.rootUri.fsPath) : ({ kind: 'uncommitted' } as const);
      if (target.kind === 'nothing') {
        void vscode.window.showInformationMessage(vscode.l10n.t('There is nothing to review: no uncommitted changes, and this branch has no commits of its own.'));
        return;
      }
      const findings = vscode.l10n.t('List each finding with the file and line in code style (`path/to/file.ts:12`), what is wrong and how to fix it; most serious first.');
      const text =
        target.kind === 'branch'
          ? `${vscode.l10n.t('Review the changes of the branch {0} since it left {1}.', target.branch, target.base)} ${findings}`
          : `${vscode.l10n.t('Review these uncommitted changes.')} ${findings}`;
      await prefillChat(runtime, { text, mentions: [target.kind === 'branch' ? { kind: 'git', base: target.base } : { kind: 'git' }], mode: 'plan' }, true);
    }),
  ];
}
