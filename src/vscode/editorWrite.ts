import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WriteReport } from '../core/host';
import type { DiagnosticInfo } from './diagnosticsReport';
import { newErrorsReport } from './diagnosticsReport';

/** How long to wait for language servers to report on a saved file. */
const DIAGNOSTICS_WAIT_MS = 1500;
/** The first write of a language may start its server (tsserver takes seconds): wait longer, once. */
const DIAGNOSTICS_COLD_WAIT_MS = 6000;
/**
 * For a file no one reports on yet and that has no editor tab: TypeScript only checks files
 * in tabs, so a long wait there would be for nothing; fast servers still get a moment.
 */
const DIAGNOSTICS_UNTRACKED_WAIT_MS = 300;
/** Languages whose server has reported, or that had their one long wait. */
const warmLanguages = new Set<string>();
/** After the first report, a moment more for the slower (semantic) pass. */
const DIAGNOSTICS_SETTLE_MS = 150;
/** Languages without diagnostics worth waiting for. */
const NO_DIAGNOSTICS = new Set(['plaintext', 'markdown', 'log', 'ignore']);

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
  const tracked = before.length > 0 || vscode.languages.getDiagnostics(uri).length > 0 || hasTab(uri);
  const cold = tracked && !warmLanguages.has(document.languageId);
  if (tracked) warmLanguages.add(document.languageId);
  const waitMs = !tracked ? DIAGNOSTICS_UNTRACKED_WAIT_MS : cold ? DIAGNOSTICS_COLD_WAIT_MS : DIAGNOSTICS_WAIT_MS;
  const started = Date.now();
  const reported = await diagnosticsSettled(uri, waitMs);
  if (reported) warmLanguages.add(document.languageId);
  const after = errorsOf(uri);
  log(`diagnostics of ${displayPath}: ${before.length} error(s) before, ${after.length} after; ${reported ? 'reported' : 'nothing reported'} within ${Date.now() - started} of ${waitMs} ms`);
  const diagnostics = newErrorsReport(displayPath, before, after);
  return diagnostics ? { diagnostics } : {};
}

function hasTab(uri: vscode.Uri): boolean {
  const target = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === target),
  );
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

/** Resolves true when the file's diagnostics changed (and settled a little), false after `waitMs` without a report. */
function diagnosticsSettled(uri: vscode.Uri, waitMs: number): Promise<boolean> {
  const target = uri.toString();
  return new Promise((resolve) => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    let reported = false;
    const done = (): void => {
      clearTimeout(timeout);
      clearTimeout(settle);
      subscription.dispose();
      resolve(reported);
    };
    const timeout = setTimeout(done, waitMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === target)) return;
      reported = true;
      clearTimeout(settle);
      settle = setTimeout(done, DIAGNOSTICS_SETTLE_MS);
    });
  });
}
