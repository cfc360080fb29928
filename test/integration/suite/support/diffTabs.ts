// Keel's diff editors as VS Code holds them: tabs whose right side is a keel-proposed document.
import * as vscode from 'vscode';
import { until } from './waiting';

export const PROPOSED_SCHEME = 'keel-proposed';
export const ORIGINAL_SCHEME = 'keel-original';

export interface DiffTab {
  tab: vscode.Tab;
  original: vscode.Uri;
  proposed: vscode.Uri;
}

export function keelDiffTabs(): DiffTab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.flatMap((tab) =>
      tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSED_SCHEME
        ? [{ tab, original: tab.input.original, proposed: tab.input.modified }]
        : [],
    ),
  );
}

/** The diff tab of one approval (its id is the segment after /keel-proposal/ in the proposal's path). */
export function diffTabOf(approvalId: string): DiffTab | undefined {
  return keelDiffTabs().find((d) => d.proposed.path.split('/')[2] === approvalId);
}

export async function waitForDiffTab(approvalId: string): Promise<DiffTab> {
  await until(() => diffTabOf(approvalId) !== undefined, `the diff editor of approval ${approvalId}`);
  return diffTabOf(approvalId)!;
}

/** The proposal document of an approval, opened (it is editable). */
export async function proposalDocument(approvalId: string): Promise<vscode.TextDocument> {
  const { proposed } = await waitForDiffTab(approvalId);
  return vscode.workspace.openTextDocument(proposed);
}

/** Closes every editor without saving anything (dirty documents are reverted first). */
export async function closeAllEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== 'file') continue;
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
