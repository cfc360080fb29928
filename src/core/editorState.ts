/**
 * What the editor knows that the file system does not: the person's active file and
 * selection, open editors, problems, the last terminal command. The VS Code layer fills
 * these in through optional Host methods; the CLI has none of them.
 */

export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface EditorDiagnostic {
  /** Absolute path of the file. */
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column?: number;
  severity: DiagnosticSeverity;
  message: string;
  /** The tool that reported it (e.g. "ts", "eslint"). */
  source?: string;
  code?: string;
}

export interface EditorSelection {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The selected text; empty when the selection is only a cursor. */
  text: string;
}

export interface ActiveEditor {
  /** Absolute path; untitled or non-file editors are left out by the host. */
  path: string;
  languageId?: string;
  /** 1-based line of the cursor. */
  cursorLine?: number;
  /** Absent when nothing is selected. */
  selection?: EditorSelection;
  /** The editor has unsaved changes. */
  dirty?: boolean;
}

export interface EditorState {
  active?: ActiveEditor;
  /** Absolute paths of the files open in editor tabs, most recently used first. */
  openFiles: string[];
  /** Current problems of the open files. */
  diagnostics: EditorDiagnostic[];
}

/** The last command run in Keel's terminal, for @terminal. */
export interface TerminalOutput {
  command: string;
  output: string;
  exitCode?: number;
  /** Working directory the command ran in. */
  cwd?: string;
}
