// The extension host of a code-server window, found in /proc: a child of the server's
// process group started with --type=extensionHost (a window reload starts a new one).
import { readFileSync, readdirSync } from 'node:fs';

interface HostProcess {
  pid: number;
  /** Clock ticks since boot when it started: the newest is the current window's. */
  startedAt: number;
}

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: split after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // exited meanwhile
    throw err;
  }
}

function extensionHosts(serverGroup: number): HostProcess[] {
  const found: HostProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') continue;
      throw err;
    }
    if (!cmdline.includes('--type=extensionHost')) continue;
    const fields = statFields(pid);
    // After ") ": state(0) ppid(1) pgrp(2) ... starttime is field 22 of stat, index 19 here.
    if (!fields || Number(fields[2]) !== serverGroup) continue;
    found.push({ pid, startedAt: Number(fields[19]) });
  }
  return found;
}

/** Waits for an extension host in the server's group started after `notBefore` (a pid to skip). */
export async function currentExtensionHost(serverGroup: number, skip: number | ReadonlySet<number> | undefined, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const skipped = (pid: number) => (typeof skip === 'number' ? pid === skip : skip?.has(pid) === true);
  for (;;) {
    const hosts = extensionHosts(serverGroup).filter((h) => !skipped(h.pid)).sort((a, b) => b.startedAt - a.startedAt);
    if (hosts[0]) return hosts[0].pid;
    if (Date.now() > deadline) throw new Error(`no extension host in process group ${serverGroup} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until the window's newest extension host is idle. A reload may start a host that
 * VS Code replaces at once (the old window's last one, or one it restarts): when the host
 * being watched exits, the newest one after it is watched instead.
 */
export async function waitForCurrentHostIdle(serverGroup: number, previous: number | undefined, attempts = 5): Promise<number> {
  const gone = new Set<number>(previous === undefined ? [] : [previous]);
  for (let attempt = 1; ; attempt++) {
    const pid = await currentExtensionHost(serverGroup, gone);
    try {
      await waitForIdle(pid);
      return pid;
    } catch (err) {
      if (!(err instanceof HostExitedError) || attempt >= attempts) throw err;
      gone.add(pid);
    }
  }
}

/** Resident set size in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * RSS once it has stopped moving: readings `intervalMs` apart until two in a row differ by
 * less than `toleranceMb` (a host still loading or collecting is not measured mid-way).
 */
export async function settledRssMb(pid: number, { intervalMs = 500, toleranceMb = 0.5, timeoutMs = 20_000 } = {}): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let previous = rssMb(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = rssMb(pid);
    if (Math.abs(now - previous) < toleranceMb) return now;
    if (Date.now() > deadline) throw new Error(`the RSS of process ${pid} did not settle within ${timeoutMs} ms (last ${previous.toFixed(1)} → ${now.toFixed(1)} MB)`);
    previous = now;
  }
}

class HostExitedError extends Error {}

/** CPU time (user + system) a process has used, in clock ticks (1/100 s on Linux). */
function cpuTicks(pid: number): number {
  const fields = statFields(pid);
  if (!fields) throw new HostExitedError(`process ${pid} has exited`);
  // utime and stime are stat fields 14 and 15: indexes 11 and 12 after the command name.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the process has used at most `maxTicks` of CPU in each of `quietSamples`
 * intervals in a row: a fresh extension host first activates the built-in extensions, and a
 * measurement taken meanwhile would time their work too.
 */
export async function waitForIdle(pid: number, { intervalMs = 500, maxTicks = 2, quietSamples = 2, timeoutMs = 60_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  let previous = cpuTicks(pid);
  while (quiet < quietSamples) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not go idle within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = cpuTicks(pid);
    quiet = now - previous <= maxTicks ? quiet + 1 : 0;
    previous = now;
  }
}
