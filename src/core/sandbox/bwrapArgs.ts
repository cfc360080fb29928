import { protectedBinds } from './protectedBinds';
import type { SandboxLayout, WrapOptions } from './sandboxTypes';
import { tmpRuntimePaths } from './tmpRuntime';

/**
 * bubblewrap's arguments for a layout: the whole file system read-only, fresh /dev, /proc
 * and /tmp, the writable trees bound read-write, protected paths (existing, or the empty
 * placeholders made for missing ones) bound read-only over them with the folders that hold
 * them held in place (protectedBinds: the layout's `heldParents`, which the caller narrows to
 * those it does not watch and put back itself), secrets covered last.
 * Every namespace is new, so there is no network (only a loopback of its own) unless
 * `network`, and the command cannot see or signal the person's other processes.
 * `--new-session` keeps it from typing into the person's terminal (TIOCSTI). `--cap-drop ALL`
 * matters when Keel runs as root: bubblewrap would otherwise keep every capability, and the
 * command could simply unmount the read-only binds.
 */
export function bwrapArgs(layout: SandboxLayout, opts: WrapOptions): string[] {
  const args = ['--unshare-all', ...(opts.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const path of tmpRuntimePaths({ extra: opts.visible })) args.push('--ro-bind', path, path);
  for (const path of layout.writable) args.push('--bind', path, path);
  args.push(...protectedBinds(layout));
  for (const h of layout.hidden) {
    if (h.kind === 'dir') args.push('--tmpfs', h.path, '--remount-ro', h.path);
    else args.push('--ro-bind', '/dev/null', h.path);
  }
  args.push('--chdir', opts.cwd);
  return args;
}
