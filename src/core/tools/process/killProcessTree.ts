import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { errorCode } from '../../errorCode';

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
}

/**
 * Signals a process started with `detached: true` together with everything it started:
 * on POSIX the whole process group, on Windows the process tree (taskkill /T /F).
 * Returns false when nothing was left to signal.
 */
export function killProcessTree(pid: number, signal: NodeJS.Signals, onError: (err: Error) => void): boolean {
  if (process.platform === 'win32') {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', onError);
    return true;
  }
  return signalGroup(pid, signal);
}

/**
 * Whether any process of the group is still alive (always false on Windows, where taskkill
 * forces). On Linux, zombies do not count: killed processes whose parent is gone wait there
 * for an init that may never reap them (as in many containers).
 */
export function processGroupAlive(pid: number): boolean {
  if (process.platform === 'win32' || !signalGroup(pid, 0)) return false;
  return process.platform === 'linux' ? groupHasLiveMember(pid) : true;
}

function groupHasLiveMember(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch (err) {
      // The process ended between listing and reading.
      if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ESRCH') continue;
      throw err;
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}
