import { StringDecoder } from 'node:string_decoder';
import { killProcessTree, processGroupAlive } from './process/killProcessTree';
import { trackProcessGroup, untrackProcessGroup } from './process/liveProcessGroups';
import type { ShellChild } from './process/spawnShell';
import { MiddleTruncator } from './text/middleTruncator';

/** Time between SIGTERM and SIGKILL when stopping a job. */
const killGraceMs = 2_000;

export type JobStopReason = 'killed' | 'timeout' | 'disposed';

export interface BackgroundJobInit {
  id: string;
  command: string;
  child: ShellChild;
  /** Most characters of unread output kept (head and tail; the middle is counted). */
  outputChars: number;
  /** Stops the job after this long; undefined: it runs until killed. */
  timeoutMs?: number;
  onError: (err: Error) => void;
  /** Called once when the shell has exited or could not start. */
  onExit?: () => void;
}

/**
 * A command running in the background in its own process group. Output accumulates until
 * read (bounded: the middle of a long stretch is dropped and counted).
 */
export class BackgroundJob {
  readonly id: string;
  readonly command: string;
  readonly pid: number | undefined;
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  /** Why Keel stopped it, when it did. */
  stopReason: JobStopReason | undefined;
  /** The shell could not be started. */
  startError: Error | undefined;
  private running = true;
  private unread: MiddleTruncator;
  private readonly outputChars: number;
  private readonly onError: (err: Error) => void;
  private readonly exited: Promise<void>;
  private timeout: NodeJS.Timeout | undefined;

  constructor(init: BackgroundJobInit) {
    this.id = init.id;
    this.command = init.command;
    this.outputChars = init.outputChars;
    this.onError = init.onError;
    this.unread = new MiddleTruncator(init.outputChars);
    const child = init.child;
    this.pid = child.pid;
    if (this.pid !== undefined) trackProcessGroup(this.pid);
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');
    child.stdout.on('data', (chunk: Buffer) => this.unread.append(outDecoder.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => this.unread.append(errDecoder.write(chunk)));
    child.on('close', () => {
      this.unread.append(outDecoder.end());
      this.unread.append(errDecoder.end());
      this.forgetIfGone();
    });
    this.exited = new Promise((resolve) => {
      child.on('error', (err) => {
        this.startError = err;
        this.finish();
        init.onExit?.();
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exitCode = code;
        this.signal = signal;
        this.finish();
        init.onExit?.();
        resolve();
      });
    });
    if (init.timeoutMs !== undefined) {
      this.timeout = setTimeout(() => void this.stop('timeout'), init.timeoutMs);
      this.timeout.unref();
    }
  }

  /** The shell is still running. */
  get isRunning(): boolean {
    return this.running;
  }

  /** The shell has exited but processes it started are still alive. */
  get leftProcesses(): boolean {
    return !this.running && this.pid !== undefined && processGroupAlive(this.pid);
  }

  /** Output since the last read, and forgets it. */
  read(): string {
    const text = this.unread.toString();
    this.unread = new MiddleTruncator(this.outputChars);
    return text;
  }

  /** Waits until the shell exits or `ms` pass (or the signal aborts); true when it exited. */
  async waitForExit(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.running) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      onAbort = () => resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([this.exited, gaveUp]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return !this.running;
  }

  /**
   * Stops the whole process group: SIGTERM, then SIGKILL for whatever is left after a grace
   * period. Resolves once the shell has exited and the group is gone (or was killed hard).
   */
  async stop(reason: JobStopReason): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    if (!this.running && !processGroupAlive(pid)) {
      untrackProcessGroup(pid);
      return;
    }
    this.stopReason ??= reason;
    killProcessTree(pid, 'SIGTERM', this.onError);
    await this.waitForExit(killGraceMs);
    if (processGroupAlive(pid)) killProcessTree(pid, 'SIGKILL', this.onError);
    await this.waitForExit(killGraceMs);
    this.forgetIfGone();
  }

  private finish(): void {
    this.running = false;
    clearTimeout(this.timeout);
  }

  private forgetIfGone(): void {
    if (this.pid !== undefined && !this.running && !processGroupAlive(this.pid)) untrackProcessGroup(this.pid);
  }
}
