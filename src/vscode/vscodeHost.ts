import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { TerminalOutput } from '../core/editorState';
import type { Host, WriteReport } from '../core/host';
import { readEditorState, readWorkspaceProblems } from './workspace/editorStateReader';
import { writeThroughEditor } from './workspace/editorWrite';
import { bundledRipgrep } from './workspace/ripgrepPath';
import { KeelTerminals } from './terminal/keelTerminals';
import { runInKeelTerminal } from './terminal/terminalCommandRun';
import type { WatchedCommand } from './terminal/terminalWatch';
import { TerminalText } from '../core/tools';

/**
 * The core's view of VS Code: writes go through the editor, logs to the "Keel" channel, the
 * editor's state and problems for the context and @-mentions, commands in Keel's terminals
 * (and the last one's output for @terminal). Dispose it to close those terminals.
 */
export function createVscodeHost(log: vscode.LogOutputChannel): Host & vscode.Disposable & { pointTerminal(command: WatchedCommand): void } {
  const terminals = new KeelTerminals((level, message) => log[level](message));
  // A command of the person's own terminals sent with "Fix with Keel" or "Add Last Command":
  // @terminal means it until a Keel terminal runs something newer.
  let pointed: { command: TerminalOutput; at: number } | undefined;
  const ripgrepPath = bundledRipgrep(vscode.env.appRoot);
  log.info(ripgrepPath ? `search: using VS Code's ripgrep at ${ripgrepPath}` : "search: VS Code's ripgrep not found; using rg from PATH or the built-in search");
  return {
    kind: 'vscode',
    displayLanguage: vscode.env.language,
    ripgrepPath,
    log(level, message) {
      log[level](message);
    },
    writeFile(absPath: string, content: string | null): Promise<WriteReport> {
      return writeThroughEditor(absPath, content, displayPath(absPath), (message) => log.debug(message));
    },
    editorState: () => Promise.resolve(readEditorState()),
    workspaceProblems: () => Promise.resolve(readWorkspaceProblems()),
    lastTerminalOutput: async () => {
      const keel = await terminals.lastCommand();
      return pointed && (!keel || pointed.at >= terminals.lastAt) ? pointed.command : keel;
    },
    pointTerminal(watched) {
      // What the terminal wrote, cleaned of escape sequences as Keel's own terminals' output is.
      const text = new TerminalText();
      const output = (text.push(watched.rawOutput) + text.end()).replace(/\n+$/, '');
      const command: TerminalOutput = { command: watched.command, output, ...(watched.exitCode !== undefined ? { exitCode: watched.exitCode } : {}), ...(watched.cwd ? { cwd: watched.cwd } : {}) };
      pointed = { command, at: Date.now() };
    },
    personCommandsSince: (since) => terminals.personCommandsSince(since),
    runInTerminal: (command) => runInKeelTerminal(command, { terminals, log: (level, message) => log[level](message) }),
    dispose: () => terminals.dispose(),
  };
}

function displayPath(absPath: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(absPath));
  if (!folder) return absPath;
  const rel = relative(folder.uri.fsPath, absPath).split(sep).join('/');
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
}
