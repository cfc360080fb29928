import { readFileSync } from 'node:fs';
import { errorMessage } from '../../core/errors';

/**
 * The process group running in the foreground of a terminal whose shell is `shellPid`
 * (from /proc: the `tpgid` of the shell's controlling terminal), when it is not the shell
 * itself: that group is the command Keel typed, with everything it started. Undefined when
 * nothing but the shell runs, or where /proc is not there (the command is then stopped with
 * Ctrl+C alone).
 */
export function foregroundGroup(shellPid: number, onError: (message: string) => void): number | undefined {
  if (process.platform !== 'linux') return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${shellPid}/stat`, 'utf8');
  } catch (err) {
    onError(`could not read the terminal's foreground process group: ${errorMessage(err)}`);
    return undefined;
  }
  // pid (comm) state ppid pgrp session tty_nr tpgid ...: comm may hold spaces, so split after the last ')'.
  const tpgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[5]);
  return Number.isInteger(tpgid) && tpgid > 0 && tpgid !== shellPid ? tpgid : undefined;
}
