import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { errorMessage } from '../../core/errors';

/**
 * The process group running in the foreground of a terminal whose shell is `shellPid` (the
 * `tpgid` of the shell's controlling terminal), when it is not the shell itself: that group is
 * the command Keel typed, with everything it started. Read from /proc on Linux and from `ps`
 * on other Unixes. Undefined when nothing but the shell runs, or on Windows (the command is
 * then stopped with Ctrl+C alone).
 */
export function foregroundGroup(shellPid: number, onError: (message: string) => void): number | undefined {
  if (process.platform === 'win32') return undefined;
  let tpgid: number;
  try {
    tpgid = process.platform === 'linux' ? procTpgid(shellPid) : psTpgid(shellPid);
  } catch (err) {
    onError(`could not read the terminal's foreground process group: ${errorMessage(err)}`);
    return undefined;
  }
  return Number.isInteger(tpgid) && tpgid > 0 && tpgid !== shellPid ? tpgid : undefined;
}

function procTpgid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // pid (comm) state ppid pgrp session tty_nr tpgid ...: comm may hold spaces, so split after the last ')'.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[5]);
}

function psTpgid(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'tpgid=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }).trim());
}
