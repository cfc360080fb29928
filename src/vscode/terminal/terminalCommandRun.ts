import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { killProcessTree, processGroupAlive } from '../../core/tools';
import { terminalCommandLine } from '../../core/tools';
import type { TerminalCommand, TerminalRan, TerminalRun } from '../../core/tools';
import { MiddleTruncator } from '../../core/tools';
import { TerminalText } from '../../core/tools';
import { foregroundGroup } from './foregroundGroup';
import { maxKeelTerminals, type KeelTerminals, type TerminalLease } from './keelTerminals';
import { shellIntegrationReady, shellIntegrationWaitMs } from './shellIntegrationReady';

/** After Ctrl+C, how long the command gets to end before its process group is sent SIGTERM. */
const ctrlCGraceMs = 2_000;
/** After SIGTERM, how long before SIGKILL. */
const killGraceMs = 2_000;
/** After a stop, how long to wait for the terminal to report the end before giving up on it. */
const endReportMs = 10_000;
/** After the end, how long the output stream gets to deliver its last chunk. */
const readGraceMs = 1_000;

export interface TerminalRunDeps {
  terminals: KeelTerminals;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** How long to wait for shell integration in a new terminal. */
  waitMs?: number;
}

/**
 * Runs a bash tool command in a Keel terminal through shell integration, so the person sees
 * it and can type into it; the output and exit code come from shell-integration events. Says
 * `ran: false` (and runs nothing) when shell integration is off or does not activate in time,
 * or every Keel terminal is busy.
 */
export async function runInKeelTerminal(cmd: TerminalCommand, deps: TerminalRunDeps): Promise<TerminalRun> {
  if (vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled') === false) {
    return { ran: false, reason: 'shell integration is turned off (terminal.integrated.shellIntegration.enabled)' };
  }
  const lease = deps.terminals.lease(cmd.shell, cmd.cwd);
  if (!lease) return { ran: false, reason: `all ${maxKeelTerminals} Keel terminals are busy` };
  try {
    lease.terminal.show(true);
    const waitMs = deps.waitMs ?? shellIntegrationWaitMs;
    // A terminal that already missed it once is not waited for again (it may still activate later).
    const integration = await shellIntegrationReady(lease.terminal, lease.integrationMissed ? 0 : waitMs, cmd.signal);
    if (!integration) {
      if (cmd.signal.aborted) return { ran: false, reason: 'cancelled while the terminal started' };
      lease.missedIntegration();
      return { ran: false, reason: `shell integration did not activate in the terminal "${lease.name}" within ${waitMs / 1000} s` };
    }
    const shellPid = await lease.terminal.processId;
    return await execute(lease, integration, shellPid, cmd, deps);
  } finally {
    lease.release();
  }
}

async function execute(
  lease: TerminalLease,
  integration: vscode.TerminalShellIntegration,
  shellPid: number | undefined,
  cmd: TerminalCommand,
  deps: TerminalRunDeps,
): Promise<TerminalRan> {
  const { terminal } = lease;
  const warn = (message: string): void => deps.log('warn', `terminal: ${message}`);
  const onKillError = (err: Error): void => deps.log('error', `terminal: could not stop a command: ${err.message}`);
  const line = terminalCommandLine(cmd.shell, cmd.command, cmd.cwd, integration.cwd?.fsPath, cmd.prefix, cmd.env);
  const text = new TerminalText();
  const output = new MiddleTruncator(cmd.maxOutputChars);
  const result: TerminalRan = { ran: true, terminalName: lease.name, output: '', exitCode: undefined, timedOut: false, cancelled: false };

  let finished = false;
  let endReported = false;
  let resolveEnd: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    resolveEnd = resolve;
  });
  const timers: NodeJS.Timeout[] = [];
  let group: number | undefined;
  let groupKilled = false;

  const killGroup = (signal: NodeJS.Signals): void => {
    if (group === undefined || !processGroupAlive(group)) return;
    killProcessTree(group, signal, onKillError);
    groupKilled = true;
  };
  let stopping = false;
  const stop = (): void => {
    if (stopping || finished) return;
    stopping = true;
    // The foreground group of the terminal is the command (with everything it started) while it runs.
    group = shellPid === undefined ? undefined : foregroundGroup(shellPid, warn);
    terminal.sendText('\x03', false);
    timers.push(
      setTimeout(() => {
        if (finished) return;
        killGroup('SIGTERM');
        timers.push(setTimeout(() => !finished && killGroup('SIGKILL'), killGraceMs));
      }, ctrlCGraceMs),
      setTimeout(resolveEnd, endReportMs),
    );
  };

  const subscriptions = [
    vscode.window.onDidEndTerminalShellExecution((event) => {
      // The terminal is leased to this command alone, so its next end is this command's.
      if (event.terminal !== terminal) return;
      result.exitCode = event.exitCode;
      endReported = true;
      resolveEnd();
    }),
    vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      result.terminalClosed = true;
      resolveEnd();
    }),
  ];
  const onAbort = (): void => {
    result.cancelled = true;
    stop();
  };
  cmd.signal.addEventListener('abort', onAbort, { once: true });
  timers.push(
    setTimeout(() => {
      result.timedOut = true;
      stop();
    }, cmd.timeoutMs),
  );

  try {
    const execution = integration.executeCommand(line);
    const reading = (async () => {
      for await (const chunk of execution.read()) {
        const clean = text.push(chunk);
        output.append(clean);
        if (clean !== '') cmd.onOutput?.(clean);
      }
    })().catch((err: unknown) => warn(`could not read the command's output: ${errorMessage(err)}`));
    if (cmd.signal.aborted) onAbort();
    await ended;
    await Promise.race([reading, new Promise((resolve) => timers.push(setTimeout(resolve, readGraceMs)))]);
    finished = true;
    if (stopping) {
      // Stopping was asked for: nothing the command started may outlive the call.
      killGroup('SIGKILL');
      const how = [`Ctrl+C was sent to the terminal "${lease.name}"`];
      if (groupKilled) how.push(`its process group ${group} was killed`);
      if (!endReported && !result.terminalClosed) how.push(`the terminal did not report the command's end within ${endReportMs / 1000} s`);
      result.stopNote = `${how.join('; ')}.`;
    }
  } finally {
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    for (const sub of subscriptions) sub.dispose();
    cmd.signal.removeEventListener('abort', onAbort);
  }
  output.append(text.end());
  result.output = output.toString();
  deps.terminals.record({ command: cmd.command, output: result.output, exitCode: result.exitCode, cwd: cmd.cwd });
  return result;
}
