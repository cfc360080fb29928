import * as vscode from 'vscode';
import type { Mention, PathMention } from '../../protocol/uiMessage';

/** Lines shown around a problem for "Fix with Keel", each side. */
const AROUND = 5;

/**
 * A file or folder of the workspace as the chat's `@` names it: relative to its folder (with the
 * folder's name first in a multi-root workspace), narrowed to 1-based lines when given. Undefined
 * for anything outside the workspace's folders: the chat reads only those.
 */
export function pathMention(uri: vscode.Uri, kind: 'file' | 'folder', lines?: { start: number; end: number }): PathMention | undefined {
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const path = vscode.workspace.asRelativePath(uri, multiRoot);
  if (path === '' || path === '.') return undefined;
  return { kind, path, ...(lines ? { range: { startLine: lines.start + 1, endLine: Math.max(lines.start, lines.end) + 1 } } : {}) };
}

/** The lines a selection covers (a selection ending at a line's start leaves that line out); the whole file when it is empty. */
export function selectionMention(document: vscode.TextDocument, selection: vscode.Selection | vscode.Range): PathMention | undefined {
  if (selection.isEmpty) return pathMention(document.uri, 'file');
  const end = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  return pathMention(document.uri, 'file', { start: selection.start.line, end });
}

/** The code around a problem, then the whole file. */
export function problemMentions(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): Mention[] {
  const start = Math.max(0, diagnostic.range.start.line - AROUND);
  const end = Math.min(document.lineCount - 1, diagnostic.range.end.line + AROUND);
  return [pathMention(document.uri, 'file', { start, end }), pathMention(document.uri, 'file')].filter((m): m is PathMention => m !== undefined);
}

/** One problem in words: "src/a.ts:12: error TS2322 (ts): Type 'string' is not assignable…". */
export function problemLine(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): string {
  const where = `${vscode.workspace.asRelativePath(document.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1)}:${diagnostic.range.start.line + 1}`;
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  const label = [severityWord(diagnostic.severity), code !== undefined ? String(code) : '', diagnostic.source ? `(${diagnostic.source})` : ''].filter(Boolean).join(' ');
  return `${where}: ${label}: ${diagnostic.message}`;
}

function severityWord(severity: vscode.DiagnosticSeverity): string {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}
