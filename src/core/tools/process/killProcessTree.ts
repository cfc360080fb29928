import { spawn } from 'node:child_process';

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

/** Whether any process of the group is still alive (always false on Windows, where taskkill forces). */
export function processGroupAlive(pid: number): boolean {
  return process.platform !== 'win32' && signalGroup(pid, 0);
}
