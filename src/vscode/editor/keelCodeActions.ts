import * as vscode from 'vscode';

/** Most "Fix with Keel" entries one lightbulb offers (one per problem under the cursor). */
const MAX_FIXES = 3;

/**
 * The lightbulb's Keel entries: "Fix with Keel" for each problem under the cursor, "Explain with
 * Keel" and "Ask Keel about this" on a selection. They run the editor commands, which only fill
 * the chat's composer.
 */
export class KeelCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.Empty.append('keel')];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!vscode.workspace.getWorkspaceFolder(document.uri)) return [];
    const actions: vscode.CodeAction[] = [];
    const wants = (kind: vscode.CodeActionKind): boolean => !context.only || context.only.contains(kind) || kind.contains(context.only);
    if (wants(vscode.CodeActionKind.QuickFix)) {
      for (const diagnostic of context.diagnostics.slice(0, MAX_FIXES)) {
        const fix = new vscode.CodeAction(vscode.l10n.t('Fix with Keel'), vscode.CodeActionKind.QuickFix);
        fix.diagnostics = [diagnostic];
        fix.command = { command: 'keel.fixWithKeel', title: fix.title, arguments: [document.uri, diagnostic] };
        actions.push(fix);
      }
    }
    const keel = KeelCodeActions.kinds[1];
    if (!range.isEmpty && wants(keel)) {
      const explain = new vscode.CodeAction(vscode.l10n.t('Explain with Keel'), keel);
      explain.command = { command: 'keel.explainWithKeel', title: explain.title, arguments: [document.uri, range] };
      const ask = new vscode.CodeAction(vscode.l10n.t('Ask Keel about this'), keel);
      ask.command = { command: 'keel.askAboutSelection', title: ask.title, arguments: [document.uri, range] };
      actions.push(explain, ask);
    }
    return actions;
  }
}
