import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { pathMention } from '../editor/editorMentions';
import type { Mention } from '../../protocol/uiMessage';
import type { ConfigSetParams, UiConfig } from '../../protocol/uiConfig';
import type { LineRange } from '../../protocol/uiMessage';
import type { CoreAccess } from '../../chat/runtime/coreAccess';
import type { TextDiff } from '../../chat/parts/changeReverts';
import type { ChangeReview } from '../diff/changeReview';
import type { TextDiffs } from '../diff/textDiffs';
import type { EditorServices, FileSearchResult, UiCommand } from '../../chat/bus/editorServices';
import type { FileIndex } from './fileIndex';
import type { UiConfigBridge } from '../view/uiConfigBridge';

/** The chat's editor requests, answered with the real VS Code API. */
export class VscodeServices implements EditorServices {
  constructor(
    private readonly deps: {
      config: UiConfigBridge;
      files: FileIndex;
      diff: Pick<ChangeReview, 'get' | 'open'>;
      textDiffs: Pick<TextDiffs, 'open'>;
      core: Pick<CoreAccess, 'get'>;
      extensionId: string;
    },
  ) {}

  configGet(): Promise<UiConfig> {
    return this.deps.config.get();
  }

  configSet(params: ConfigSetParams): Promise<UiConfig> {
    return this.deps.config.set(params);
  }

  searchFiles(query: string, limit: number, signal: AbortSignal): Promise<FileSearchResult[]> {
    return this.deps.files.search(query, limit, signal);
  }

  /** Only paths inside the workspace open: the core's path rules decide, symlinks included. */
  async openFile(path: string, range?: LineRange): Promise<boolean> {
    const { ctx } = await this.deps.core.get();
    const absolute = await ctx.workspace.resolve(path);
    const uri = vscode.Uri.file(absolute);
    if ((await stat(absolute)).isDirectory()) {
      await vscode.commands.executeCommand('revealInExplorer', uri);
      return true;
    }
    const options: vscode.TextDocumentShowOptions = { preview: true };
    if (range) {
      const start = new vscode.Position(range.startLine - 1, 0);
      const end = new vscode.Position(Math.max(range.startLine, range.endLine) - 1, Number.MAX_SAFE_INTEGER);
      options.selection = new vscode.Range(start, end);
    }
    await vscode.window.showTextDocument(uri, options);
    return true;
  }

  /** The bus only lets http(s) through; the person still confirms before anything opens. */
  async openLink(url: string): Promise<boolean> {
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Open this link in your browser?'), { modal: true, detail: url }, vscode.l10n.t('Open'));
    if (choice !== vscode.l10n.t('Open')) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  async insertCode(code: string): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Keel: open a file and place the cursor where the code should go.'));
      return false;
    }
    const done = await editor.edit((builder) => {
      for (const selection of editor.selections) builder.replace(selection, code);
    });
    if (done) await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    return done;
  }

  /** The pending change's diff (the same editable proposal the editor commands act on), without taking focus. */
  async openDiff(approvalId: string): Promise<boolean> {
    const entry = this.deps.diff.get(approvalId);
    return entry ? this.deps.diff.open(entry, false) : false;
  }

  openTextDiff(diff: TextDiff): Promise<boolean> {
    return this.deps.textDiffs.open(diff);
  }

  async openSettings(query?: string): Promise<boolean> {
    await vscode.commands.executeCommand('workbench.action.openSettings', query?.trim() || `@ext:${this.deps.extensionId}`);
    return true;
  }

  /** The command is one of the catalogue's allow-list (checked by the bus schema). */
  async runCommand(command: UiCommand, args: string[] = []): Promise<boolean> {
    await vscode.commands.executeCommand(command, ...args);
    return true;
  }

  async mentionsFromUris(uris: readonly string[]): Promise<{ mentions: Mention[]; outside: number }> {
    const mentions: Mention[] = [];
    let outside = 0;
    for (const text of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(text, true);
      } catch {
        outside++;
        continue;
      }
      const stat = uri.scheme === 'file' ? await vscode.workspace.fs.stat(uri).then((s) => s, () => undefined) : undefined;
      const mention = stat ? pathMention(uri, stat.type & vscode.FileType.Directory ? 'folder' : 'file') : undefined;
      if (mention && !mentions.some((m) => m.kind === mention.kind && 'path' in m && m.path === mention.path)) mentions.push(mention);
      else if (!mention) outside++;
    }
    return { mentions, outside };
  }
}
