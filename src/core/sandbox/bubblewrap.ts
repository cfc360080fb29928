import { execFile } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { isExecutable } from '../tools/process/isExecutable';
import { bwrapArgs } from './bwrapArgs';
import { removeAppeared } from './mustNotAppear';
import { holdPlaceholders } from './placeholders';
import { guardProtected } from './protectedGuard';
import type { SandboxBackend, SandboxDetection, SandboxLayout, SandboxedStart } from './sandboxTypes';

/** `bwrap` on PATH, then where Debian puts it. */
export async function findBwrap(pathVar: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'bwrap');
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * bubblewrap is usable when it can build the sandbox Keel uses (new namespaces of every
 * kind); containers and hardened kernels often forbid unprivileged user namespaces.
 */
export async function probeBwrap(bwrap: string): Promise<SandboxDetection> {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', 'true'];
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 10_000 }, (err, _stdout, stderr) => {
      if (err) {
        const why = stderr.trim() || err.message;
        resolve({ available: false, reason: `bubblewrap (${bwrap}) cannot create a sandbox here: ${why}` });
      } else resolve({ available: true, backend: bubblewrapBackend(bwrap) });
    });
  });
}

export function bubblewrapBackend(bwrap: string): SandboxBackend {
  return {
    kind: 'bubblewrap',
    async wrap(layout: SandboxLayout, opts: { cwd: string; network: boolean; visible?: readonly string[] }): Promise<SandboxedStart> {
      const release = await holdPlaceholders(layout.missing);
      const guard = guardProtected(layout);
      return {
        prefix: [bwrap, ...bwrapArgs(layout, opts), '--'],
        layout,
        report: guard.report,
        async release() {
          await release();
          await guard.check();
          return removeAppeared(layout.mustNotAppear);
        },
      };
    },
  };
}
