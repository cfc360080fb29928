import { byDepth } from './heldParents';
import type { SandboxLayout } from './sandboxTypes';

/**
 * bubblewrap's binds for the protected part of a layout, after the writable trees: the folders
 * that hold protected paths bound onto themselves (writable, but a mount point cannot be
 * renamed or removed), the protected paths and placeholders read-only. Shallowest first, so a
 * folder's bind never covers the read-only binds inside it.
 */
export function protectedBinds(layout: SandboxLayout): string[] {
  const binds = new Map<string, '--bind' | '--ro-bind'>();
  for (const path of layout.heldParents) binds.set(path, '--bind');
  for (const path of layout.readOnly) binds.set(path, '--ro-bind');
  for (const m of layout.missing) binds.set(m.path, '--ro-bind');
  const args: string[] = [];
  for (const path of [...binds.keys()].sort(byDepth)) args.push(binds.get(path) as string, path, path);
  return args;
}
