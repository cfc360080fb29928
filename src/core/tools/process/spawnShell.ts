import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export type ShellChild = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts `shell -c command` as the leader of its own process group (so the whole group can be
 * signalled), with stdin closed and stderr merged into stdout: one pipe keeps the true
 * interleaving (two pipes race each other). The command is appended after `exec 2>&1;`
 * unchanged, so it parses exactly as the approval rules parsed it. `prefix` runs it inside
 * another program (the OS sandbox).
 */
export function spawnShell(shell: string, command: string, cwd: string, env: NodeJS.ProcessEnv, prefix: readonly string[] = []): ShellChild {
  // With a prefix (the OS sandbox), the group leader is the sandbox program: stopping the group stops it and all inside.
  const argv = [...prefix, shell, '-c', `exec 2>&1; ${command}`];
  return spawn(argv[0], argv.slice(1), {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}
