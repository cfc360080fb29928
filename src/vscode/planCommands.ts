import * as vscode from 'vscode';
import type { Mention } from '../protocol/uiMessage';
import type { KeelRuntime } from './keelRuntime';

export interface PlanCommandDeps {
  runtime(): Promise<KeelRuntime>;
  /** Registers a command whose failures are logged and shown. */
  command(id: string, run: (...args: unknown[]) => Promise<unknown> | unknown): vscode.Disposable;
}

/** "Keel: Plan…", "Keel: Toggle Plan Mode", "Keel: Open Plan", "Keel: Execute Plan". */
export function registerPlanCommands(deps: PlanCommandDeps): vscode.Disposable[] {
  return [
    deps.command('keel.plan', async (task?: unknown) => {
      const selection = describeSelection(vscode.window.activeTextEditor);
      const typed =
        typeof task === 'string'
          ? task
          : await vscode.window.showInputBox({
              title: 'Keel: Plan',
              prompt: 'What should Keel plan? It reads the workspace and writes a plan; nothing is changed.',
              placeHolder: 'e.g. Add input validation to the parser',
              value: selection?.text ?? '',
              ignoreFocusOut: true,
              validateInput: (value) => (value.trim() ? undefined : 'Describe the task to plan'),
            });
      if (typed === undefined || !typed.trim()) return;
      const runtime = await deps.runtime();
      await runtime.revealView();
      // The selection goes along as a mention when the person kept the words that name it.
      const mentions: Mention[] = selection && typed.includes(selection.path) ? [selection.mention] : [];
      await runtime.controller.send({ text: typed.trim(), mode: 'plan', ...(mentions.length ? { mentions } : {}) });
    }),
    deps.command('keel.togglePlanMode', async () => {
      const runtime = await deps.runtime();
      const next = runtime.controller.mode === 'plan' ? 'act' : 'plan';
      runtime.controller.setMode(next);
      void vscode.window.setStatusBarMessage(next === 'plan' ? 'Keel: plan mode (read-only)' : 'Keel: act mode', 3000);
    }),
    deps.command('keel.openPlan', async () => {
      const runtime = await deps.runtime();
      const id = runtime.controller.latestPlanId();
      if (!id) {
        void vscode.window.showInformationMessage('Keel: this conversation has no plan yet. Run "Keel: Plan…" first.');
        return;
      }
      await runtime.controller.openPlan(id);
    }),
    deps.command('keel.executePlan', async (resource?: unknown) => {
      const runtime = await deps.runtime();
      // From a plan file's editor title: that plan, which must belong to the conversation in view.
      const id = resource instanceof vscode.Uri ? runtime.controller.planIdOfFile(resource.fsPath) : runtime.controller.latestPlanId();
      if (!id) {
        const why = resource instanceof vscode.Uri ? 'this plan is not one of the conversation shown in the Keel view; resume that conversation first' : 'this conversation has no plan to execute';
        void vscode.window.showInformationMessage(`Keel: ${why}.`);
        return;
      }
      await runtime.revealView();
      await runtime.controller.executePlan(id);
    }),
  ];
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
