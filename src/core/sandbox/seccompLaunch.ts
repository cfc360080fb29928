import { rmSync } from 'node:fs';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../sha256';
import { seccompArch, seccompBytes } from './seccompFilter';

/** The descriptor bubblewrap reads the filter from. */
const filterFd = 3;

/**
 * How a sandboxed program is started with the seccomp filter: bubblewrap takes it on a file
 * descriptor, and some starters cannot hand a child more than stdin, stdout and stderr (the
 * MCP SDK's stdio transport, a line typed into a terminal). So the prefix opens the filter
 * itself: `/bin/sh -c 'exec "$@" 3<"$0"' FILTER bwrap --seccomp 3 …`. The shell runs on the
 * host as a plain exec (a non-interactive `sh` reads no startup file), and the file's path is
 * an argument, never part of the script.
 */
export interface SeccompLaunch {
  /** Goes before the bubblewrap program. */
  launcher: string[];
  /** Goes among bubblewrap's options. */
  bwrapArgs: string[];
}

export function seccompLaunch(file: string): SeccompLaunch {
  return {
    launcher: ['/bin/sh', '-c', `exec "$@" ${filterFd}<"$0"`, file],
    bwrapArgs: ['--seccomp', String(filterFd)],
  };
}

let written: Promise<string> | undefined;

/**
 * The filter for this machine, written once per process into a new folder of its own (made
 * by mkdtemp, so no one else could have put a file there first, and only Keel's user may
 * write it) and removed at exit. Throws
 * when Keel has no filter for this architecture.
 */
export function seccompFilterFile(): Promise<string> {
  if (!written) {
    written = writeFilter();
    written.catch(() => (written = undefined));
  }
  return written;
}

async function writeFilter(): Promise<string> {
  const arch = seccompArch();
  if (!arch) throw new Error(`Keel has no seccomp filter for the ${process.arch} architecture (only x86-64 and arm64)`);
  const bytes = seccompBytes(arch);
  const dir = await mkdtemp(join(tmpdir(), 'keel-seccomp-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  // Readable by anyone (a program is no secret; a command started as another user opens it), writable by no one.
  await chmod(dir, 0o755);
  const file = join(dir, `${arch}-${sha256(bytes).slice(0, 12)}.bpf`);
  await writeFile(file, bytes, { mode: 0o444, flag: 'wx' });
  await chmod(file, 0o444);
  return file;
}
