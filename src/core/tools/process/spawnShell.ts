import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export type ShellChild = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts `shell -c command` as the leader of its own process group (so the whole group can be
 * signalled), with stdin closed and stderr merged into stdout: one pipe keeps the true
 * interleaving (two pipes race each other). The command is appended after `exec 2>&1;`
 * unchanged, so it parses exactly as the approval rules parsed it.
 */
export function spawnShell(shell: string, command: string, cwd: string, env: NodeJS.ProcessEnv): ShellChild {
  return spawn(shell, ['-c', `exec 2>&1; ${command}`], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}
