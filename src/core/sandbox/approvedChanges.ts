/**
 * Protected paths the person approved a change to (a tool call that touched them), and when.
 * A sandboxed run that was going on at that time must not take that change for its own and
 * undo it. Process-wide, as the placeholders are; the oldest are forgotten past a bound.
 */
const approved = new Map<string, number>();
const maxRemembered = 1_000;

/** Notes that the person approved changing these paths (absolute), now. */
export function noteApprovedChanges(paths: readonly string[], at = Date.now()): void {
  for (const path of paths) {
    approved.delete(path);
    approved.set(path, at);
  }
  while (approved.size > maxRemembered) approved.delete(approved.keys().next().value as string);
}

/** Whether the person approved a change at or below `path` since `since` (ms since the epoch). */
export function approvedSince(path: string, since: number): boolean {
  for (const [p, at] of approved) if (at >= since && (p === path || p.startsWith(`${path}/`))) return true;
  return false;
}

/**
 * Whether the person approved a change to `path` itself, or to a folder holding it, since `since`.
 * Narrower than `approvedSince`: approving an edit inside `pkg/.vscode` does not approve moving `pkg`.
 */
export function approvedCovering(path: string, since: number): boolean {
  for (const [p, at] of approved) if (at >= since && (p === path || path.startsWith(`${p}/`))) return true;
  return false;
}
