import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { removeAppeared } from './mustNotAppear';
import { guardProtected } from './protectedGuard';
import { noteSandboxGoing } from './runningSandboxes';
import { seatbeltProfile } from './seatbeltProfile';
import type { SandboxBackend, SandboxDetection, SandboxLayout, SandboxedStart, WrapOptions } from './sandboxTypes';

export const sandboxExecPath = '/usr/bin/sandbox-exec';

/** Seatbelt is usable when sandbox-exec runs a trivial profile (it is deprecated, not gone). */
export function probeSeatbelt(): Promise<SandboxDetection> {
  return new Promise((resolve) => {
    execFile(sandboxExecPath, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { timeout: 10_000 }, (err, _o, stderr) => {
      if (err) resolve({ available: false, reason: `sandbox-exec cannot run here: ${stderr.trim() || err.message}` });
      else resolve({ available: true, backend: seatbeltBackend() });
    });
  });
}

/**
 * macOS has no private /tmp for a process: the sandboxed command may write the shared
 * temporary folders (/private/tmp and the per-user one), which nothing runs code from.
 */
export function seatbeltBackend(): SandboxBackend {
  const tmpDirs = [...new Set(['/private/tmp', '/private/var/folders', safeRealpath(tmpdir())])];
  return {
    kind: 'seatbelt',
    // Without the network the profile denies every connection; with it, Unix sockets are not filtered.
    weaknesses: [
      {
        protection: 'host-sockets',
        reason: "a command the person gave the network can also connect to Unix sockets of programs on this Mac (such as Docker's): Keel's Seatbelt profile does not filter them",
      },
    ],
    async wrap(layout: SandboxLayout, opts: WrapOptions): Promise<SandboxedStart> {
      const profile = seatbeltProfile(layout, { network: opts.network, tmpDirs });
      const guard = guardProtected(layout);
      const ended = noteSandboxGoing();
      return {
        prefix: [sandboxExecPath, '-p', profile],
        layout,
        report: guard.report,
        async release() {
          ended();
          await guard.check();
          return removeAppeared(layout.mustNotAppear);
        },
      };
    },
  };
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // The folder may be gone; the name is still what commands would use.
    return path;
  }
}
