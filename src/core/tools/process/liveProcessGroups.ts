import { killProcessTree } from './killProcessTree';

const groups = new Set<number>();
let hooked = false;

function killAllOnExit(): void {
  for (const pid of groups) {
    try {
      killProcessTree(pid, 'SIGKILL', (err) => process.stderr.write(`Keel: could not stop background command ${pid}: ${err.message}\n`));
    } catch (err) {
      // The host is exiting: stderr is the only place left to say it.
      process.stderr.write(`Keel: could not stop background command ${pid}: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  groups.clear();
}

/**
 * Remembers a background process group so that it dies with the host process (VS Code's
 * extension host, the CLI) even when nobody disposed of the conversation that started it.
 */
export function trackProcessGroup(pid: number): void {
  groups.add(pid);
  if (!hooked) {
    hooked = true;
    process.on('exit', killAllOnExit);
  }
}

export function untrackProcessGroup(pid: number): void {
  groups.delete(pid);
}
