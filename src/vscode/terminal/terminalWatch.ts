import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';

/** Raw output kept of a command the person ran: its start and its end (the middle of a long log rarely matters). */
const keptChars = 40_000;
/** After a command ends, how long its output stream gets to deliver the rest. */
const readGraceMs = 1_000;

/** A command the person ran in one of their terminals, as shell integration reported it. */
export interface WatchedCommand {
  command: string;
  /** What the terminal wrote, escape sequences and all; the middle left out past `keptChars`. */
  rawOutput: string;
  exitCode: number | undefined;
  cwd?: string;
}

/** The first and last `max / 2` characters of a stream, and how many were left out between. */
class HeadTail {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    const half = this.max / 2;
    if (this.head.length < half) {
      const take = chunk.slice(0, half - this.head.length);
      this.head += take;
      chunk = chunk.slice(take.length);
    }
    this.tail += chunk;
    if (this.tail.length > half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(-half);
    }
  }

  toString(): string {
    return this.dropped > 0 ? `${this.head}\n[... ${this.dropped} characters left out ...]\n${this.tail}` : this.head + this.tail;
  }
}

/** A failure worth offering a fix for: not a success, not unknown, not the person's own Ctrl+C (SIGINT). */
function failed(exitCode: number | undefined): boolean {
  return exitCode !== undefined && exitCode !== 0 && exitCode !== 130;
}

/** Keel's own terminals (src/vscode/terminal/keelTerminals.ts) are recorded there, for @terminal. */
function isKeelTerminal(terminal: vscode.Terminal): boolean {
  const options = terminal.creationOptions as vscode.TerminalOptions;
  return options.env?.KEEL === '1';
}

/**
 * The person's own terminals: the last command each ran, with its output and exit code (shell
 * integration), so "Fix with Keel" and "Add Last Command to Chat" can send it. When a command
 * fails in the terminal in front, a status bar entry offers the fix until the next command
 * starts there. Part of the activation shell: it must see a command start to read its output.
 */
export class TerminalWatch implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, WatchedCommand>();
  private readonly failed = new Set<vscode.Terminal>();
  private readonly offer: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Listeners for the end of commands still running. */
  private readonly running = new Set<vscode.Disposable>();

  constructor(
    fixCommand: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.offer = vscode.window.createStatusBarItem('keel.terminalFix', vscode.StatusBarAlignment.Left, -100);
    this.offer.name = vscode.l10n.t('Keel: Fix Failed Command');
    this.offer.text = `$(sparkle) ${vscode.l10n.t('Fix with Keel')}`;
    this.offer.command = fixCommand;
    this.disposables.push(
      this.offer,
      vscode.window.onDidStartTerminalShellExecution((event) => this.started(event)),
      vscode.window.onDidCloseTerminal((terminal) => {
        this.last.delete(terminal);
        this.failed.delete(terminal);
        this.showOffer();
      }),
      vscode.window.onDidChangeActiveTerminal(() => this.showOffer()),
    );
  }

  /** The last command that ended in `terminal` (the one in front when left out). */
  lastCommand(terminal = vscode.window.activeTerminal): WatchedCommand | undefined {
    return terminal ? this.last.get(terminal) : undefined;
  }

  /** The person acted on the failure: stop offering the fix for it. */
  settle(terminal = vscode.window.activeTerminal): void {
    if (terminal) this.failed.delete(terminal);
    this.showOffer();
  }

  dispose(): void {
    for (const d of [...this.disposables.splice(0), ...this.running]) d.dispose();
    this.running.clear();
  }

  private started(event: vscode.TerminalShellExecutionStartEvent): void {
    const { terminal, execution } = event;
    if (isKeelTerminal(terminal)) return;
    this.failed.delete(terminal);
    this.showOffer();
    const output = new HeadTail(keptChars);
    const reading = (async () => {
      for await (const chunk of execution.read()) output.push(chunk);
    })().catch((err: unknown) => this.log.warn(`terminal: could not read a command's output: ${errorMessage(err)}`));
    const sub = vscode.window.onDidEndTerminalShellExecution((ended) => {
      if (ended.execution !== execution) return;
      sub.dispose();
      this.running.delete(sub);
      void Promise.race([reading, new Promise((resolve) => setTimeout(resolve, readGraceMs))]).then(() => {
        this.last.set(terminal, {
          command: execution.commandLine.value,
          rawOutput: output.toString(),
          exitCode: ended.exitCode,
          ...(execution.cwd ? { cwd: execution.cwd.fsPath } : {}),
        });
        if (failed(ended.exitCode) && execution.commandLine.value.trim()) this.failed.add(terminal);
        this.showOffer();
      });
    });
    this.running.add(sub);
  }

  private showOffer(): void {
    const active = vscode.window.activeTerminal;
    const command = active && this.failed.has(active) ? this.last.get(active) : undefined;
    if (!command) {
      this.offer.hide();
      return;
    }
    this.offer.tooltip = vscode.l10n.t('Ask Keel to fix `{0}` (exit code {1})', command.command, String(command.exitCode));
    this.offer.show();
  }
}
