import type { EditorDiagnostic, EditorState, TerminalOutput } from './editorState';
import type { TerminalCommand, TerminalRun } from './tools/process/terminalRun';

/**
 * What the core needs from whatever hosts it (VS Code or the terminal CLI).
 * The core never imports `vscode`; the editor layer implements this instead.
 */
export interface Host {
  /** 'vscode' or 'cli': shown in the system prompt's environment section. */
  readonly kind: 'vscode' | 'cli';
  /**
   * The person's display language as a BCP 47 tag (VS Code's, or the CLI's LANG): named in
   * the system prompt so the model can answer in it. Absent when unknown.
   */
  readonly displayLanguage?: string;
  /**
   * Writes a whole file (creating folders) or deletes it when content is null.
   * The CLI writes atomically; VS Code applies a WorkspaceEdit so undo works.
   * Returns diagnostics text the model should see (new errors), if any.
   */
  writeFile(absPath: string, content: string | null): Promise<WriteReport>;
  /** Log line for the host's log channel (never contains secrets). */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
  /**
   * The ripgrep binary search tools should use (VS Code ships one); when absent they look
   * for `rg` on PATH, then fall back to their own search.
   */
  readonly ripgrepPath?: string;
  /**
   * The person's editor now: active file with cursor and selection, open files, and the
   * problems of the open files. Feeds the "editor" section of the model's context and
   * @selection. Absent in the CLI.
   */
  editorState?(): Promise<EditorState>;
  /** Every problem the editor knows of in the workspace, for @problems. Absent in the CLI. */
  workspaceProblems?(): Promise<EditorDiagnostic[]>;
  /** The last command run in Keel's terminal and its output, for @terminal; undefined when none ran yet. */
  lastTerminalOutput?(): Promise<TerminalOutput | undefined>;
  /**
   * Runs a bash tool command in the editor's terminal, where the person sees it (VS Code:
   * Keel's terminal with shell integration). `ran: false` says why it could not, and the
   * tool runs it as a child process instead. Absent in the CLI.
   */
  runInTerminal?(command: TerminalCommand): Promise<TerminalRun>;
  /**
   * The command lines the person ran in Keel's terminals that were running at some moment
   * since `since` (a `Date.now()` value): what they changed lands in the same snapshots as a
   * command of Keel's running then. Absent in the CLI.
   */
  personCommandsSince?(since: number): string[];
}

export interface WriteReport {
  diagnostics?: string;
  /**
   * What is on disk after the write, when it differs from what was asked: the editor's save
   * actions (format on save, trim trailing whitespace) ran. The model is told, and the read
   * tracker records this content, so nothing builds on text that is not there.
   */
  landed?: string;
}
