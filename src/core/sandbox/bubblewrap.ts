import { execFile } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { isExecutable } from '../tools/process/isExecutable';
import { bwrapArgs } from './bwrapArgs';
import { removeAppeared } from './mustNotAppear';
import { holdPlaceholders } from './placeholders';
import { noteSandboxGoing } from './runningSandboxes';
import { guardProtected } from './protectedGuard';
import type { ProtectedGuard } from './protectedGuard';
import { seccompFilterFile, seccompLaunch } from './seccompLaunch';
import type { SeccompLaunch } from './seccompLaunch';
import type { SandboxBackend, SandboxDetection, SandboxLayout, SandboxWeakness, SandboxedStart, WrapOptions } from './sandboxTypes';

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
 * kind); containers and hardened kernels often forbid unprivileged user namespaces. It is
 * tried with the seccomp filter first; where the filter cannot be made or loaded, the
 * sandbox still runs, and says it is weaker.
 */
export async function probeBwrap(bwrap: string): Promise<SandboxDetection> {
  const probe = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', 'true'];
  let filterProblem: string;
  try {
    const launch = seccompLaunch(await seccompFilterFile());
    const withFilter = await tryRun([...launch.launcher, bwrap, ...launch.bwrapArgs, ...probe]);
    if (withFilter === undefined) return { available: true, backend: bubblewrapBackend(bwrap, launch) };
    filterProblem = `bubblewrap could not load Keel's seccomp filter: ${withFilter}`;
  } catch (err) {
    filterProblem = err instanceof Error ? err.message : String(err);
  }
  const plain = await tryRun([bwrap, ...probe]);
  if (plain !== undefined) return { available: false, reason: `bubblewrap (${bwrap}) cannot create a sandbox here: ${plain}` };
  return { available: true, backend: bubblewrapBackend(bwrap, undefined, filterProblem) };
}

/** Undefined when argv ran and exited 0; otherwise what went wrong. */
function tryRun(argv: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(argv[0], argv.slice(1), { timeout: 10_000 }, (err, _stdout, stderr) => resolve(err ? stderr.trim() || err.message : undefined));
  });
}

/**
 * `seccomp`: how the filter is handed to bubblewrap; without it, `noFilter` says why, and the
 * backend reports that host sockets are reachable.
 */
export function bubblewrapBackend(bwrap: string, seccomp: SeccompLaunch | undefined, noFilter = 'no seccomp filter was given'): SandboxBackend {
  const weaknesses: SandboxWeakness[] = seccomp
    ? []
    : [{ protection: 'host-sockets', reason: `sandboxed commands can connect to Unix sockets of programs on this machine (such as Docker's): ${noFilter}` }];
  return {
    kind: 'bubblewrap',
    weaknesses,
    async wrap(layout: SandboxLayout, opts: WrapOptions): Promise<SandboxedStart> {
      const release = await holdPlaceholders(layout.missing);
      const program = seccomp ? [...seccomp.launcher, bwrap, ...seccomp.bwrapArgs] : [bwrap];
      let guard: ProtectedGuard;
      try {
        // After the placeholders: the folders made for them (`.cursor` around `.cursor/rules`) are watched too.
        guard = guardProtected(layout, { watchParents: opts.longLived !== true });
      } catch (err) {
        await release();
        throw err;
      }
      const ended = noteSandboxGoing();
      return {
        prefix: [...program, ...bwrapArgs({ ...layout, heldParents: guard.mustHold }, opts), '--'],
        layout,
        report: guard.report,
        async release() {
          ended();
          await release();
          await guard.check();
          return removeAppeared(layout.mustNotAppear);
        },
      };
    },
  };
}
