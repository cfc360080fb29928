import { dirname } from 'node:path';

/**
 * The folders inside the writable trees that hold a protected path: every folder between a
 * writable root (exclusive) and the protected path (exclusive). bubblewrap binds each onto
 * itself, and a mount point cannot be renamed or removed (EBUSY), so a command cannot move
 * `.git` (or `.github` around `.github/instructions`, `pkg/` around `pkg/.vscode`) aside and
 * put a copy of its own making in its place. The folders stay writable: only their place is
 * held. Folders inside a read-only path need nothing more. Sorted, shallowest first.
 */
export function heldParents(roots: readonly string[], held: readonly string[]): string[] {
  const readOnly = new Set(held);
  const out = new Set<string>();
  for (const path of held) {
    const root = roots.find((r) => path.startsWith(`${r}/`));
    if (!root) continue;
    for (let dir = dirname(path); dir !== root && dir.startsWith(`${root}/`); dir = dirname(dir)) {
      if (out.has(dir)) break;
      out.add(dir);
    }
  }
  return [...out].filter((dir) => !insideAny(dir, readOnly)).sort(byDepth);
}

function insideAny(dir: string, readOnly: ReadonlySet<string>): boolean {
  for (let d = dir; d !== dirname(d); d = dirname(d)) if (readOnly.has(d)) return true;
  return false;
}

/** Shallower paths first, so a bind never covers one made inside it; ties in name order. */
export function byDepth(a: string, b: string): number {
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function depth(path: string): number {
  let n = 0;
  for (const c of path) if (c === '/') n++;
  return n;
}
