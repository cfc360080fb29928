import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WriteReport } from '../core/host';
import { DiagnosticsWatch } from './diagnosticsWatch';

/**
 * Writes a whole file through VS Code instead of behind its back: a WorkspaceEdit (so Undo
 * works and open editors follow), then a save. An editor with unsaved changes that differ
 * from the disk is never overwritten. Returns the errors the change introduced, if any.
 */
export async function writeThroughEditor(
  absPath: string,
  content: string | null,
  displayPath: string,
  log: (message: string) => void,
): Promise<WriteReport> {
  const uri = vscode.Uri.file(absPath);
  const edit = new vscode.WorkspaceEdit();
  if (content === null) {
    edit.deleteFile(uri, { ignoreIfNotExists: true, recursive: false });
    await apply(edit, absPath);
    return {};
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) await refuseUnsavedChanges(open, absPath, displayPath);
  if (await exists(uri)) {
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const all = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, all, content);
  } else {
    edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(content) });
  }
  const watch = new DiagnosticsWatch(uri);
  try {
    await apply(edit, absPath);
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.isDirty && !(await document.save())) {
      throw new Error(`VS Code did not save ${displayPath}; the change is in its editor but not on disk.`);
    }
    const diagnostics = await watch.newErrors(document, displayPath, log);
    return diagnostics ? { diagnostics } : {};
  } finally {
    watch.dispose();
  }
}

async function apply(edit: vscode.WorkspaceEdit, absPath: string): Promise<void> {
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the change to ${absPath}.`);
}

async function refuseUnsavedChanges(document: vscode.TextDocument, absPath: string, displayPath: string): Promise<void> {
  let disk: string;
  try {
    disk = await readFile(absPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    disk = '';
  }
  if (document.getText() !== disk) {
    throw new Error(`${displayPath} has unsaved changes in an editor; nothing was written. Ask the person to save or revert it, then read it again.`);
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return false;
    throw err;
  }
}
