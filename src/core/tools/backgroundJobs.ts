import { BackgroundJob } from './backgroundJob';
import { spawnShell } from './process/spawnShell';

export interface BackgroundJobsOptions {
  /** Most jobs running at once. */
  maxRunning?: number;
  /** Most jobs remembered (finished ones are forgotten oldest first). */
  maxKept?: number;
  /** Most characters of unread output kept per job. */
  outputChars?: number;
  onError: (err: Error) => void;
}

export interface JobStart {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The program the shell runs inside (the OS sandbox). */
  prefix?: readonly string[];
  /** Called once when the job's shell has exited (the sandbox cleans up). */
  onExit?: () => void;
}

/** The conversation already runs as many background commands as it may. */
export class TooManyJobsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TooManyJobsError';
  }
}

export const defaultMaxRunningJobs = 8;
const defaultMaxKeptJobs = 32;
export const defaultJobOutputChars = 30_000;

/**
 * The background commands of one conversation. They outlive the turn that started them
 * and stop with kill_bash, when the conversation is disposed, or when the host exits.
 */
export class BackgroundJobs {
  private readonly jobs = new Map<string, BackgroundJob>();
  private nextId = 1;
  private readonly maxRunning: number;
  private readonly maxKept: number;
  private readonly outputChars: number;
  private readonly onError: (err: Error) => void;

  constructor(opts: BackgroundJobsOptions) {
    this.maxRunning = opts.maxRunning ?? defaultMaxRunningJobs;
    this.maxKept = opts.maxKept ?? defaultMaxKeptJobs;
    this.outputChars = opts.outputChars ?? defaultJobOutputChars;
    this.onError = opts.onError;
  }

  /** Starts a job; throws TooManyJobsError when too many are running. */
  start(spec: JobStart): BackgroundJob {
    const running = [...this.jobs.values()].filter((j) => j.isRunning);
    if (running.length >= this.maxRunning) {
      throw new TooManyJobsError(
        `${running.length} background commands are already running (${running.map((j) => j.id).join(', ')}), the most allowed; stop one with kill_bash first.`,
      );
    }
    this.forgetOldFinished();
    const id = `bash_${this.nextId++}`;
    const job = new BackgroundJob({
      id,
      command: spec.command,
      child: spawnShell(spec.shell, spec.command, spec.cwd, spec.env, spec.prefix),
      onExit: spec.onExit,
      outputChars: this.outputChars,
      timeoutMs: spec.timeoutMs,
      onError: this.onError,
    });
    this.jobs.set(id, job);
    return job;
  }

  get(id: string): BackgroundJob | undefined {
    return this.jobs.get(id);
  }

  list(): BackgroundJob[] {
    return [...this.jobs.values()];
  }

  /** Stops every job and what it started (for the end of the conversation). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.stop('disposed')));
  }

  private forgetOldFinished(): void {
    for (const [id, job] of this.jobs) {
      if (this.jobs.size < this.maxKept) return;
      if (!job.isRunning && !job.leftProcesses) this.jobs.delete(id);
    }
  }
}
