import type { TerminalEnv } from './terminalCommandLine';

/**
 * Running a command in the editor's terminal, where the person sees it and can type into it.
 * The bash tool asks the host for this first (VS Code implements it with shell integration)
 * and uses its own child process when the host has no terminal or the terminal cannot run
 * commands it can observe.
 */
export interface TerminalCommand {
  /** The shell that runs the command line (`shell -c command`), as for the child process. */
  shell: string;
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  maxOutputChars: number;
  /** Output as it arrives (escape sequences removed), for a live view. */
  onOutput?: (text: string) => void;
  /** The program the shell runs inside (the OS sandbox), typed before it on the line. */
  prefix?: readonly string[];
  /** The only environment the command gets (see terminalCommandLine). */
  env: TerminalEnv;
}

export interface TerminalRan {
  ran: true;
  /** The terminal it ran in, as the person sees it in the terminal list. */
  terminalName: string;
  /** Output without terminal escape sequences, capped (head and tail kept). */
  output: string;
  /** Undefined when the terminal did not report one. */
  exitCode: number | undefined;
  timedOut: boolean;
  cancelled: boolean;
  /** How it was stopped after a timeout or cancel (Ctrl+C, then its process group killed). */
  stopNote?: string;
  /** The terminal closed while the command ran. */
  terminalClosed?: boolean;
}

export interface TerminalUnavailable {
  ran: false;
  /** Why it could not run in the terminal; the tool says so and runs it as a child process. */
  reason: string;
}

export type TerminalRun = TerminalRan | TerminalUnavailable;
