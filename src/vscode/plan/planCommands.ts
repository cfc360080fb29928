import * as vscode from 'vscode';
import type { Mention } from '../../protocol/uiMessage';
import type { ChatController } from '../../chat/chatController';

/** Plan mode's palette commands; the extension shell registers the ids and the runtime runs them. */
export const planCommandIds = ['keel.plan', 'keel.togglePlanMode', 'keel.openPlan', 'keel.executePlan'] as const;
export type PlanCommandId = (typeof planCommandIds)[number];

/** What the plan commands use of the runtime: the conversation, and the chat view to show. */
export interface PlanCommandHost {
  readonly controller: ChatController;
  revealView(): Promise<void>;
}

export async function runPlanCommand(runtime: PlanCommandHost, id: PlanCommandId, args: readonly unknown[]): Promise<void> {
  const controller = runtime.controller;
  switch (id) {
    case 'keel.plan': {
      const selection = describeSelection(vscode.window.activeTextEditor);
      const task = args[0];
      const typed =
        typeof task === 'string'
          ? task
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Keel: Plan'),
              prompt: vscode.l10n.t('What should Keel plan? It reads the workspace and writes a plan; nothing is changed.'),
              placeHolder: vscode.l10n.t('e.g. Add input validation to the parser'),
              value: selection?.text ?? '',
              ignoreFocusOut: true,
              validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Describe the task to plan')),
            });
      if (typed === undefined || !typed.trim()) return;
      await runtime.revealView();
      // The selection goes along as a mention when the person kept the words that name it.
      const mentions: Mention[] = selection && typed.includes(selection.path) ? [selection.mention] : [];
      await controller.inView.send({ text: typed.trim(), mode: 'plan', ...(mentions.length ? { mentions } : {}) });
      return;
    }
    case 'keel.togglePlanMode': {
      const next = controller.mode === 'plan' ? 'act' : 'plan';
      controller.inView.setMode(next);
      void vscode.window.setStatusBarMessage(next === 'plan' ? vscode.l10n.t('Keel: plan mode (read-only)') : vscode.l10n.t('Keel: act mode'), 3000);
      return;
    }
    case 'keel.openPlan': {
      const planId = controller.plans.latestId();
      if (!planId) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Keel: this conversation has no plan yet. Run "Keel: Plan…" first.'));
        return;
      }
      await controller.plans.open(planId);
      return;
    }
    case 'keel.executePlan': {
      // From a plan file's editor title: that plan, which must belong to the conversation in view.
      const resource = args[0];
      const fromFile = resource instanceof vscode.Uri;
      const planId = fromFile ? controller.plans.idOfFile(resource.fsPath) : controller.plans.latestId();
      if (!planId) {
        void vscode.window.showInformationMessage(
          fromFile
            ? vscode.l10n.t('Keel: this plan is not one of the conversation shown in the Keel view; resume that conversation first.')
            : vscode.l10n.t('Keel: this conversation has no plan to execute.'),
        );
        return;
      }
      await runtime.revealView();
      await controller.plans.execute(planId);
      return;
    }
  }
}

/** "In src/a.ts (lines 3-7): " for a non-empty selection in a workspace file. */
function describeSelection(editor: vscode.TextEditor | undefined): { text: string; path: string; mention: Mention } | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const { document, selection } = editor;
  if (!vscode.workspace.getWorkspaceFolder(document.uri)) return undefined;
  const path = vscode.workspace.asRelativePath(document.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  const startLine = selection.start.line + 1;
  // A selection that ends at the start of a line does not include that line.
  const endLine = Math.max(startLine, selection.end.character === 0 ? selection.end.line : selection.end.line + 1);
  const lines = startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;
  return { text: `In ${path} (${lines}): `, path, mention: { kind: 'file', path, range: { startLine, endLine } } };
}
