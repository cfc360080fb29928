import { TooManyJobsError } from './backgroundJobs';
import { jobStatus, shownOutput } from './jobReport';
import { shellEnv } from './process/shellEnv';
import { errorResult, textResult } from './tool';
import type { ToolContext, ToolResult } from './tool';

/** How long a new background job may run before the call returns with its first output. */
export const backgroundSettleMs = 1_000;

export interface BackgroundStart {
  shell: string;
  command: string;
  cwd: string;
  timeoutMs?: number;
  /** The OS sandbox the shell runs inside. */
  prefix?: readonly string[];
  /** Called when the job's shell has exited (or could not start). */
  onExit?: () => void;
}

/** Starts the command as a background job and returns at once with its id and first output. */
export async function startBackground(spec: BackgroundStart, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.jobs) {
    spec.onExit?.();
    return errorResult('Background commands are not available here; run the command without run_in_background.');
  }
  let job;
  // Taken before the job starts; the after-snapshot waits for it to exit (or be killed).
  const bracket = await ctx.snapshots?.begin();
  try {
    job = ctx.jobs.start({ shell: spec.shell, command: spec.command, cwd: spec.cwd, env: shellEnv(ctx.envPolicy), timeoutMs: spec.timeoutMs, prefix: spec.prefix, onExit: spec.onExit });
  } catch (err) {
    await bracket?.end();
    spec.onExit?.();
    if (err instanceof TooManyJobsError) return errorResult(err.message);
    throw err;
  }
  if (bracket) void job.whenExited().then(() => bracket.end());
  await job.waitForExit(backgroundSettleMs, ctx.signal);
  const output = shownOutput(job.read(), '(no output yet)');
  const next = job.isRunning
    ? `Read its new output with bash_output (id "${job.id}"); stop it with kill_bash. It keeps running after this turn.`
    : `Its output has been read; bash_output (id "${job.id}") shows anything that comes later.`;
  return textResult(`Started background job ${job.id}.\n\n${output}\n\n${jobStatus(job)} ${next}`, job.startError !== undefined);
}
