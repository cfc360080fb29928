import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WriteReport } from '../core/host';
import type { DiagnosticInfo } from './diagnosticsReport';
import { newErrorsReport } from './diagnosticsReport';

/** How long to wait for language servers to report on a saved file. */
const DIAGNOSTICS_WAIT_MS = 1500;
/** After the first report, a moment more for the slower (semantic) pass. */
const DIAGNOSTICS_SETTLE_MS = 150;
/** Languages without diagnostics worth waiting for. */
const NO_DIAGNOSTICS = new Set(['plaintext', 'markdown', 'log', 'ignore']);

/**
 * Writes a whole file through VS Code instead of behind its back: a WorkspaceEdit (so Undo
 * works and open editors follow), then a save. An editor with unsaved changes that differ
 * from the disk is never overwritten. Returns the errors the change introduced, if any.
 */
export async function writeThroughEditor(absPath: string, content: string | null, displayPath: string): Promise<WriteReport> {
  const uri = vscode.Uri.file(absPath);
  const edit = new vscode.WorkspaceEdit();
  if (content === null) {
    edit.deleteFile(uri, { ignoreIfNotExists: true, recursive: false });
    await apply(edit, absPath);
    return {};
  }
  const before = errorsOf(uri);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) await refuseUnsavedChanges(open, absPath, displayPath);
  if (await exists(uri)) {
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const all = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, all, content);
  } else {
    edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(content) });
  }
  await apply(edit, absPath);
  const document = await vscode.workspace.openTextDocument(uri);
  if (document.isDirty && !(await document.save())) {
    throw new Error(`VS Code did not save ${displayPath}; the change is in its editor but not on disk.`);
  }
  if (NO_DIAGNOSTICS.has(document.languageId)) return {};
  await diagnosticsSettled(uri);
  const diagnostics = newErrorsReport(displayPath, before, errorsOf(uri));
  return diagnostics ? { diagnostics } : {};
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

function errorsOf(uri: vscode.Uri): DiagnosticInfo[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => {
      const info: DiagnosticInfo = { line: d.range.start.line, character: d.range.start.character, message: d.message };
      if (d.source) info.source = d.source;
      const code = typeof d.code === 'object' ? d.code.value : d.code;
      if (code !== undefined) info.code = code;
      return info;
    });
}

/** Resolves when the file's diagnostics changed (and settled a little), or after the wait. */
function diagnosticsSettled(uri: vscode.Uri): Promise<void> {
  const target = uri.toString();
  return new Promise((resolve) => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      clearTimeout(timeout);
      clearTimeout(settle);
      subscription.dispose();
      resolve();
    };
    const timeout = setTimeout(done, DIAGNOSTICS_WAIT_MS);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === target)) return;
      clearTimeout(settle);
      settle = setTimeout(done, DIAGNOSTICS_SETTLE_MS);
    });
  });
}
