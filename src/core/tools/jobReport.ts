import type { BackgroundJob } from './backgroundJob';

/** One sentence on where a background job stands, for the model. */
export function jobStatus(job: BackgroundJob): string {
  if (job.startError) return `Job ${job.id} could not start: ${job.startError.message}`;
  if (job.isRunning) return `Job ${job.id} is running.`;
  const end = job.exitCode !== null ? `exit code ${job.exitCode}` : `signal ${job.signal ?? 'unknown'}`;
  const how =
    job.stopReason === 'timeout'
      ? `was stopped at its timeout (${end})`
      : job.stopReason === 'killed'
        ? `was killed with kill_bash (${end})`
        : job.stopReason === 'disposed'
          ? `was stopped when the conversation ended (${end})`
          : `finished with ${end}`;
  const left = job.leftProcesses ? ' Processes it started are still running; kill_bash stops them.' : '';
  return `Job ${job.id} ${how}.${left}`;
}

/** Output text for the model: trailing newline trimmed, or a note when there is none. */
export function shownOutput(text: string, none: string): string {
  return text === '' ? none : text.replace(/\n$/, '');
}
