import * as vscode from 'vscode';
import type { TerminalOutput } from '../../core/editorState';
import { errorMessage } from '../../core/errors';
import { MiddleTruncator } from '../../core/tools';
import { TerminalText } from '../../core/tools';

/** At most this many Keel terminals at once; a command that finds them all busy runs as a child process. */
export const maxKeelTerminals = 3;
/** Output kept of a command the person ran in a Keel terminal, for @terminal. */
const recordedOutputChars = 30_000;
/** After a command ends, how long its output stream gets to deliver the rest. */
const readGraceMs = 1_000;

/** A Keel terminal held by one command until it releases it. */
export interface TerminalLease {
  readonly terminal: vscode.Terminal;
  readonly name: string;
  /** Shell integration did not activate in this terminal before: do not wait for it again. */
  readonly integrationMissed: boolean;
  /** Remembers that shell integration did not activate in time, so later commands fall back at once. */
  missedIntegration(): void;
  release(): void;
}

interface KeelTerminal {
  name: string;
  /** A Keel command holds it. */
  leased: boolean;
  /** Executions shell integration reported started and not yet ended (Keel's or the person's). */
  running: Set<vscode.TerminalShellExecution>;
  integrationMissed: boolean;
}

/**
 * Keel's terminals: created on demand, reused when idle. A terminal is busy while a Keel
 * command holds it or while shell integration reports a command running in it (the person's
 * own included): a new command then goes to another Keel terminal, never interleaved into a
 * busy one. Also remembers the last command that ran in any of them, for @terminal.
 */
export class KeelTerminals implements vscode.Disposable {
  private readonly terminals = new Map<vscode.Terminal, KeelTerminal>();
  private readonly disposables: vscode.Disposable[] = [];
  private last: TerminalOutput | undefined;
  /** When `last` was recorded (0: never). */
  lastAt = 0;
  /** Commands of the person's that ended and whose output is still being read. */
  private readonly settling = new Set<Promise<void>>();
  /** The person's commands in Keel terminals: running (no end) or ended lately. */
  private readonly personRuns = new Set<{ terminal: vscode.Terminal; command: string; end?: number }>();

  constructor(private readonly log: (level: 'info' | 'warn', message: string) => void) {
    this.disposables.push(
      vscode.window.onDidCloseTerminal((terminal) => {
        this.terminals.delete(terminal);
        // A closed terminal runs nothing more, whether or not its last command said it ended.
        for (const run of this.personRuns) if (run.terminal === terminal) run.end ??= Date.now();
      }),
      vscode.window.onDidStartTerminalShellExecution((event) => this.started(event)),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        this.terminals.get(event.terminal)?.running.delete(event.execution);
      }),
    );
  }

  /** An idle Keel terminal, or a new one; undefined when all of them are busy. */
  lease(shell: string, cwd: string): TerminalLease | undefined {
    let found: [vscode.Terminal, KeelTerminal] | undefined;
    for (const entry of this.terminals) {
      if (!entry[1].leased && entry[1].running.size === 0 && entry[0].exitStatus === undefined) {
        found = entry;
        break;
      }
    }
    if (!found) {
      if (this.terminals.size >= maxKeelTerminals) return undefined;
      found = this.create(shell, cwd);
    }
    const [terminal, state] = found;
    state.leased = true;
    return {
      terminal,
      name: state.name,
      integrationMissed: state.integrationMissed,
      missedIntegration: () => {
        state.integrationMissed = true;
      },
      release: () => {
        state.leased = false;
      },
    };
  }

  /** The person's commands in Keel terminals running at some moment since `since`. */
  personCommandsSince(since: number): string[] {
    const out: string[] = [];
    for (const run of this.personRuns) {
      if (run.end === undefined || run.end >= since) out.push(run.command);
      // Nothing bracketed lasts this long: older ends are forgotten.
      else if (run.end < Date.now() - 3_600_000) this.personRuns.delete(run);
    }
    return out;
  }

  /** The last command that ran in a Keel terminal, for @terminal. */
  async lastCommand(): Promise<TerminalOutput | undefined> {
    if (this.settling.size > 0) await Promise.all(this.settling);
    return this.last;
  }

  record(command: TerminalOutput): void {
    // The final line break is the terminal's, not part of what the command said.
    this.last = { ...command, output: command.output.replace(/\n+$/, '') };
    this.lastAt = Date.now();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const terminal of this.terminals.keys()) terminal.dispose();
    this.terminals.clear();
  }

  private create(shell: string, cwd: string): [vscode.Terminal, KeelTerminal] {
    const taken = new Set([...this.terminals.values()].map((t) => t.name));
    let name = 'Keel';
    for (let n = 2; taken.has(name); n++) name = `Keel ${n}`;
    const terminal = vscode.window.createTerminal({
      name,
      cwd,
      // The shell that runs the commands (bash when there is one: VS Code integrates with it).
      shellPath: shell,
      // As for the child process: no pagers or credential prompts, and `cd dir` goes where the approval rules expect.
      env: { KEEL: '1', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CDPATH: null },
      iconPath: new vscode.ThemeIcon('terminal'),
      // Its commands belong to a conversation: not restored into a reloaded window.
      isTransient: true,
    });
    const state: KeelTerminal = { name, leased: false, running: new Set(), integrationMissed: false };
    this.terminals.set(terminal, state);
    this.log('info', `terminal: opened "${name}" for commands`);
    return [terminal, state];
  }

  private started(event: vscode.TerminalShellExecutionStartEvent): void {
    const state = this.terminals.get(event.terminal);
    if (!state) return;
    state.running.add(event.execution);
    // Keel's own commands are recorded by their run; this is the person typing in a Keel terminal.
    if (!state.leased) this.recordPersonCommand(event.terminal, event.execution);
  }

  /**
   * Reads a command the person ran in a Keel terminal and records it once it ends. Until
   * its output is in, @terminal waits for it (briefly), so asking right after it ended works.
   */
  private recordPersonCommand(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const text = new TerminalText();
    const output = new MiddleTruncator(recordedOutputChars);
    const reading = (async () => {
      for await (const chunk of execution.read()) output.append(text.push(chunk));
      output.append(text.end());
    })().catch((err: unknown) => this.log('warn', `terminal: could not read a command's output: ${errorMessage(err)}`));
    const run: { terminal: vscode.Terminal; command: string; end?: number } = { terminal, command: execution.commandLine.value || 'a command' };
    this.personRuns.add(run);
    const sub = vscode.window.onDidEndTerminalShellExecution((event) => {
      if (event.execution !== execution) return;
      sub.dispose();
      run.end = Date.now();
      const settled = Promise.race([reading, new Promise((resolve) => setTimeout(resolve, readGraceMs))]).then(() => {
        this.record({ command: execution.commandLine.value, output: output.toString(), exitCode: event.exitCode, cwd: execution.cwd?.fsPath });
      });
      this.settling.add(settled);
      void settled.finally(() => this.settling.delete(settled));
    });
  }
}
