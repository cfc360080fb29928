import { StringDecoder } from 'node:string_decoder';
import { MiddleTruncator } from '../text/middleTruncator';
import { killProcessTree, processGroupAlive } from './killProcessTree';
import { spawnShell } from './spawnShell';

/** Time between SIGTERM and SIGKILL when stopping a command. */
const killGraceMs = 2_000;
/** How long to wait for the output pipes after the shell exits (background jobs may hold them). */
const pipeGraceMs = 250;

export interface ShellRun {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** The shell exited but something it started in the background still holds the output open. */
  detachedOutput: boolean;
}

export interface ShellOptions {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  maxOutputChars: number;
  onError: (err: Error) => void;
  /** Output as it arrives, for a live view. */
  onOutput?: (text: string) => void;
  /** The program (and its arguments) the shell runs inside: the OS sandbox. */
  prefix?: readonly string[];
}

/**
 * Runs `shell -c command` in its own process group with stdin closed, collecting stdout and
 * stderr together in arrival order. A timeout or an abort stops the whole group: SIGTERM,
 * then SIGKILL for whatever is left after a grace period.
 */
export function runShell(opts: ShellOptions): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const output = new MiddleTruncator(opts.maxOutputChars);
    const child = spawnShell(opts.shell, opts.command, opts.cwd, opts.env, opts.prefix);
    const run: ShellRun = { output: '', exitCode: null, signal: null, timedOut: false, cancelled: false, detachedOutput: false };
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');
    const take = (text: string): void => {
      output.append(text);
      if (text !== '') opts.onOutput?.(text);
    };
    child.stdout.on('data', (chunk: Buffer) => take(outDecoder.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => take(errDecoder.write(chunk)));

    let killTimer: NodeJS.Timeout | undefined;
    let pipeTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const pid = child.pid;
    const stop = (): void => {
      if (pid === undefined || killTimer) return;
      killProcessTree(pid, 'SIGTERM', opts.onError);
      killTimer = setTimeout(() => {
        if (processGroupAlive(pid)) killProcessTree(pid, 'SIGKILL', opts.onError);
      }, killGraceMs);
      killTimer.unref();
    };
    const timeout = setTimeout(() => {
      run.timedOut = true;
      stop();
    }, opts.timeoutMs);
    const onAbort = (): void => {
      run.cancelled = true;
      stop();
    };
    opts.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(pipeTimer);
      opts.signal.removeEventListener('abort', onAbort);
      output.append(outDecoder.end());
      output.append(errDecoder.end());
      if (killTimer && pid !== undefined && processGroupAlive(pid)) {
        // Stopping was requested: nothing of the group may outlive the call.
        clearTimeout(killTimer);
        killProcessTree(pid, 'SIGKILL', opts.onError);
      }
      run.output = output.toString();
      resolve(run);
    };
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      opts.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      run.exitCode = code;
      run.signal = signal;
      pipeTimer = setTimeout(() => {
        run.detachedOutput = true;
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, pipeGraceMs);
    });
    child.on('close', finish);
    if (opts.signal.aborted) onAbort();
  });
}
