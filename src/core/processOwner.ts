import { hostname } from 'node:os';

/**
 * Whether the process that wrote an owner record (a lock, a busy marker) may still be running.
 * An owner on another host cannot be checked, so it counts as live; so does this process.
 */
export function ownerMayBeLive(owner: { pid: number; hostname: string }): boolean {
  if (owner.hostname !== hostname()) return true;
  if (owner.pid <= 0) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
