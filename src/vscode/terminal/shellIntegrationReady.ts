import * as vscode from 'vscode';

/** How long a new terminal's shell gets to report shell integration before Keel runs the command as a child process. */
export const shellIntegrationWaitMs = 10_000;

/**
 * The terminal's shell integration once it is active; undefined when it does not activate
 * within `waitMs` (a shell without it, a custom prompt that breaks it, the setting off) or
 * when the terminal closes or the signal aborts first.
 */
export function shellIntegrationReady(terminal: vscode.Terminal, waitMs: number, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const done = (value: vscode.TerminalShellIntegration | undefined): void => {
      clearTimeout(timer);
      changed.dispose();
      closed.dispose();
      signal.removeEventListener('abort', aborted);
      resolve(value);
    };
    const aborted = (): void => done(undefined);
    const changed = vscode.window.onDidChangeTerminalShellIntegration((event) => {
      if (event.terminal === terminal) done(event.shellIntegration);
    });
    const closed = vscode.window.onDidCloseTerminal((closedTerminal) => {
      if (closedTerminal === terminal) done(undefined);
    });
    const timer = setTimeout(() => done(terminal.shellIntegration), waitMs);
    signal.addEventListener('abort', aborted, { once: true });
    if (signal.aborted) done(undefined);
  });
}
