import * as vscode from 'vscode';
import type { ActiveEditor, EditorDiagnostic, EditorState } from '../../core/editorState';
import { problemList } from './problemList';

/** Caps: the core cuts further to its budgets; these keep one call cheap in a huge workspace. */
const MAX_OPEN_FILES = 50;
const MAX_OPEN_FILE_PROBLEMS = 200;
const MAX_WORKSPACE_PROBLEMS = 500;
const MAX_SELECTION_CHARS = 200_000;

/** The active file and selection, the files open in tabs (active first) and their problems. */
export function readEditorState(): EditorState {
  const openFiles = openFilePaths();
  const open = new Set(openFiles);
  const diagnostics = problemList(
    vscode.languages.getDiagnostics().flatMap(([uri, list]) => (uri.scheme === 'file' && open.has(uri.fsPath) ? [[uri.fsPath, list] as const] : [])),
    MAX_OPEN_FILE_PROBLEMS,
  );
  const state: EditorState = { openFiles, diagnostics };
  const active = activeEditor();
  if (active) state.active = active;
  return state;
}

/** Every problem VS Code knows of in files on disk, most severe first, capped. */
export function readWorkspaceProblems(): EditorDiagnostic[] {
  return problemList(
    vscode.languages.getDiagnostics().flatMap(([uri, list]) => (uri.scheme === 'file' ? [[uri.fsPath, list] as const] : [])),
    MAX_WORKSPACE_PROBLEMS,
  );
}

function activeEditor(): ActiveEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const { document, selection } = editor;
  const active: ActiveEditor = {
    path: document.uri.fsPath,
    languageId: document.languageId,
    cursorLine: selection.active.line + 1,
    dirty: document.isDirty,
  };
  if (!selection.isEmpty) {
    const text = document.getText(selection);
    active.selection = {
      startLine: selection.start.line + 1,
      endLine: selection.end.line + 1,
      text: text.length > MAX_SELECTION_CHARS ? text.slice(0, MAX_SELECTION_CHARS) : text,
    };
  }
  return active;
}

/** Files open in editor tabs: the active tab's first, then the rest in tab order, each once. */
function openFilePaths(): string[] {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
  const activeTab = vscode.window.tabGroups.activeTabGroup.activeTab;
  const ordered = activeTab ? [activeTab, ...tabs.filter((tab) => tab !== activeTab)] : tabs;
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const tab of ordered) {
    const input = tab.input;
    if (!(input instanceof vscode.TabInputText) || input.uri.scheme !== 'file') continue;
    const path = input.uri.fsPath;
    if (seen.has(path)) continue;
    seen.add(path);
    paths.push(path);
    if (paths.length >= MAX_OPEN_FILES) break;
  }
  return paths;
}
