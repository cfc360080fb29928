import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';

/** The absolute `git` of each PATH entry that has one, in PATH order, per PATH value. */
const found = new Map<string, string[]>();

function candidates(path: string): string[] {
  let list = found.get(path);
  if (!list) {
    list = [];
    for (const dir of path.split(delimiter)) {
      // A relative entry ("", ".", "bin") means "from the folder git runs in": never.
      if (!isAbsolute(dir)) continue;
      const file = join(dir, 'git');
      try {
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        list.push(file);
      } catch {
        // Not there or not executable: the next PATH entry.
        continue;
      }
    }
    // None yet: looked for again next time (git installed while Keel runs).
    if (list.length > 0) found.set(path, list);
  }
  return list;
}

function inside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Folders commands may write (the workspace folders of every open Context). */
const writable = new Set<string>();

/** Tells the git runner that commands may write below `folder`: no git found there is run. */
export function noteWritableFolder(folder: string): void {
  writable.add(folder);
}

/**
 * The git program to start for a call in `cwd`: the first one on PATH that is neither found
 * through a relative entry nor inside `cwd` or a workspace folder, where a command could have
 * put a `git` of its own (`./node_modules/.bin` or an activated `.venv/bin` on PATH, say).
 * Undefined when there is none. Plain `git` on Windows, where spawning resolves it.
 */
export function gitProgram(cwd: string): string | undefined {
  if (process.platform === 'win32') return 'git';
  for (const file of candidates(process.env.PATH ?? '')) {
    if (inside(cwd, file) || [...writable].some((folder) => inside(folder, file))) continue;
    return file;
  }
  return undefined;
}
