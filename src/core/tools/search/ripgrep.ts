import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import type { Host } from '../../host';
import { isExecutable } from '../process/isExecutable';

const lookups = new Map<string, Promise<string | undefined>>();

/** `rg` on PATH (cached per PATH value), or undefined. */
export function ripgrepOnPath(pathValue = process.env.PATH ?? ''): Promise<string | undefined> {
  let found = lookups.get(pathValue);
  if (!found) {
    const names = process.platform === 'win32' ? ['rg.exe', 'rg'] : ['rg'];
    found = (async () => {
      for (const dir of pathValue.split(delimiter)) {
        if (!dir) continue;
        for (const name of names) {
          if (await isExecutable(join(dir, name))) return join(dir, name);
        }
      }
      return undefined;
    })();
    lookups.set(pathValue, found);
  }
  return found;
}

/** The host's ripgrep if it exists, else `rg` on PATH. */
export async function locateRipgrep(host: Host): Promise<string | undefined> {
  if (host.ripgrepPath) {
    if (await isExecutable(host.ripgrepPath)) return host.ripgrepPath;
    host.log('warn', `ripgrep not found at ${host.ripgrepPath}; looking for rg on PATH.`);
  }
  return ripgrepOnPath();
}

/**
 * Flags shared by every ripgrep call so it lists exactly what walkFiles lists: hidden files
 * included; .gitignore in the tree and parents (even outside a git repository); no
 * .ignore/.rgignore, global or .git/info/exclude rules; `.git` and `node_modules` skipped.
 */
export const ripgrepBaseArgs: readonly string[] = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--glob=!.git',
  '--glob=!node_modules',
];

export interface RipgrepRun {
  /** Exit code: 0 found, 1 nothing found, 2 error (possibly with partial results). */
  code: number | null;
  stderr: string;
  /** True when onLine asked to stop early. */
  stopped: boolean;
}

/**
 * Runs ripgrep, handing each stdout record (split on `separator`) to onLine; returning
 * false from onLine stops the search. Killed when the signal aborts.
 */
export function runRipgrep(
  rgPath: string,
  args: readonly string[],
  opts: { signal: AbortSignal; separator?: string; onLine: (line: string) => boolean | void },
): Promise<RipgrepRun> {
  const separator = opts.separator ?? '\n';
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) {
      reject(new Error('Search cancelled.'));
      return;
    }
    const child = spawn(rgPath, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let pending = '';
    let stderr = '';
    let stopped = false;
    const onAbort = (): void => {
      child.kill();
    };
    opts.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let at = pending.indexOf(separator);
      while (at >= 0) {
        const line = pending.slice(0, at);
        pending = pending.slice(at + separator.length);
        if (opts.onLine(line) === false) {
          stopped = true;
          child.kill();
          return;
        }
        at = pending.indexOf(separator);
      }
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.on('error', (err) => {
      opts.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      opts.signal.removeEventListener('abort', onAbort);
      if (opts.signal.aborted) {
        reject(new Error('Search cancelled.'));
        return;
      }
      if (!stopped && pending !== '') opts.onLine(pending);
      resolve({ code, stderr, stopped });
    });
  });
}
