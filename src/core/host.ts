/**
 * What the core needs from whatever hosts it (VS Code or the terminal CLI).
 * The core never imports `vscode`; the editor layer implements this instead.
 */
export interface Host {
  /** 'vscode' or 'cli': shown in the system prompt's environment section. */
  readonly kind: 'vscode' | 'cli';
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
}

export interface WriteReport {
  diagnostics?: string;
}
