import * as vscode from 'vscode';
import type { EventData } from '../../protocol/catalogue';
import type { Mention } from '../../protocol/uiMessage';
import { guardedCommand } from '../guardedCommand';
import type { KeelRuntime } from '../keelRuntime';
import { prefillChat } from './chatPrefill';
import { pathMention, problemLine, problemMentions, selectionMention } from './editorMentions';

export interface EditorCommandDeps {
  log: vscode.LogOutputChannel;
  /** Loads the runtime if it is not loaded yet. */
  runtime(): Promise<KeelRuntime>;
}

/**
 * Keel from where a person works: the lightbulb's "Fix with Keel", "Explain with Keel" and "Ask
 * Keel about this", and "Add to Chat" from the editor and the explorer. Each only fills the
 * chat's composer (text and mention chips) and shows the chat: nothing is sent or approved
 * until the person presses Enter. With no model configured the chat shows its first-run panel.
 */
export function registerEditorCommands(deps: EditorCommandDeps): vscode.Disposable[] {
  const command = (id: string, run: (...args: unknown[]) => Promise<void>): vscode.Disposable => guardedCommand(deps.log, id, run);

  const toChat = async (prefill: EventData<'composer'>, fresh: boolean): Promise<void> => prefillChat(await deps.runtime(), prefill, fresh);

  const outside = (): void => {
    void vscode.window.showInformationMessage(vscode.l10n.t('Keel works with the files of this workspace; this one is outside its folders.'));
  };

  /** The editor a command is about: the one showing `uri`, or the active one. */
  const editorFor = (uri: unknown): vscode.TextEditor | undefined => {
    const active = vscode.window.activeTextEditor;
    if (!(uri instanceof vscode.Uri) || active?.document.uri.toString() === uri.toString()) return active;
    return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  };

  const selectionArgs = (uri: unknown, range: unknown): { document: vscode.TextDocument; mention: Mention } | undefined => {
    const editor = editorFor(uri);
    if (!editor) return undefined;
    const mention = selectionMention(editor.document, range instanceof vscode.Range ? range : editor.selection);
    if (!mention) {
      outside();
      return undefined;
    }
    return { document: editor.document, mention };
  };

  return [
    command('keel.fixWithKeel', async (uri, diagnostic) => {
      const editor = editorFor(uri);
      if (!editor) return;
      const problem =
        diagnostic instanceof vscode.Diagnostic
          ? diagnostic
          : vscode.languages.getDiagnostics(editor.document.uri).find((d) => d.range.contains(editor.selection.active) || d.range.intersection(editor.selection) !== undefined);
      if (!problem) {
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Keel: no problem at the cursor'), 3000);
        return;
      }
      const mentions = problemMentions(editor.document, problem);
      if (mentions.length === 0) return outside();
      await toChat({ text: vscode.l10n.t('Fix this problem: {0}', problemLine(editor.document, problem)), mentions }, true);
    }),
    command('keel.explainWithKeel', async (uri, range) => {
      const picked = selectionArgs(uri, range);
      if (picked) await toChat({ text: vscode.l10n.t('Explain what this code does and why.'), mentions: [picked.mention] }, true);
    }),
    command('keel.askAboutSelection', async (uri, range) => {
      const picked = selectionArgs(uri, range);
      if (picked) await toChat({ mentions: [picked.mention], add: true }, false);
    }),
    command('keel.addSelectionToChat', async () => {
      const picked = selectionArgs(undefined, undefined);
      if (picked) await toChat({ mentions: [picked.mention], add: true }, false);
    }),
    command('keel.addProblemsToChat', async (uri) => {
      const editor = editorFor(uri);
      const target = uri instanceof vscode.Uri ? uri : editor?.document.uri;
      if (!target) return;
      const file = pathMention(target, 'file');
      if (!file) return outside();
      const document = editor?.document ?? (await vscode.workspace.openTextDocument(target));
      const problems = vscode.languages.getDiagnostics(target).map((d) => `- ${problemLine(document, d)}`);
      const text = problems.length > 0 ? vscode.l10n.t('The problems in this file:\n{0}', problems.join('\n')) : undefined;
      await toChat({ mentions: [file], ...(text ? { text } : {}), add: true }, false);
    }),
    command('keel.addToChat', async (clicked, all) => {
      const uris = Array.isArray(all) && all.length > 0 ? all.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : clicked instanceof vscode.Uri ? [clicked] : [];
      const mentions: Mention[] = [];
      for (const uri of uris) {
        const stat = await vscode.workspace.fs.stat(uri);
        const mention = pathMention(uri, stat.type & vscode.FileType.Directory ? 'folder' : 'file');
        if (mention) mentions.push(mention);
      }
      if (mentions.length === 0) return outside();
      await toChat({ mentions, add: true }, false);
    }),
  ];
}
