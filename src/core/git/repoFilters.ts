import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { findGitRepo } from '../llmsContext/gitRepo';

/**
 * Filter drivers (`filter.<name>.clean|smudge|process`) take any name a `.gitattributes`
 * gives them, so no fixed `-c` can turn them off: the names are read from the config git will
 * read, and each one is emptied on the command line (an empty clean or smudge command is no
 * filter; `required` is turned off so an emptied filter is not an error). The person's own
 * drivers (global and system config, Git LFS's included) are emptied too: which files they run
 * on is chosen by `.gitattributes` files a sandboxed command may have written, and Keel's git
 * needs no filter to read the work tree or snapshot it byte for byte.
 */

/** Runs `git config --list` with the caller's repository variables; undefined when git failed. */
export type ListConfig = () => Promise<string | undefined>;

interface Cached {
  stamps: Map<string, string>;
  overrides: string[];
}

const cache = new Map<string, Cached>();
const inFlight = new Map<string, Promise<string[] | undefined>>();
const maxCached = 64;

export interface ConfigEntry {
  scope: string;
  /** The file it came from (absolute), or undefined for the command line and blobs. */
  file?: string;
  key: string;
}

/** Entries of `git config --list --null --show-origin --show-scope`. */
export function parseConfigList(text: string, cwd: string): ConfigEntry[] {
  const parts = text.split('\0');
  const out: ConfigEntry[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const scope = parts[i]!;
    const origin = parts[i + 1]!;
    const keyValue = parts[i + 2]!;
    const nl = keyValue.indexOf('\n');
    const key = (nl < 0 ? keyValue : keyValue.slice(0, nl)).toLowerCase();
    const file = origin.startsWith('file:') ? resolve(cwd, origin.slice(5)) : undefined;
    out.push({ scope, key, ...(file ? { file } : {}) });
  }
  return out;
}

function inside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Whether a config entry is the person's rather than something the folder could have written. */
function personOwned(entry: ConfigEntry, cwd: string): boolean {
  return (entry.scope === 'global' || entry.scope === 'system') && entry.file !== undefined && !inside(cwd, entry.file);
}

/** The `-c` settings that empty every filter driver any config git reads names. */
export function filterOverrides(entries: readonly ConfigEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries) {
    const m = /^filter\.(.+)\.(clean|smudge|process|required)$/.exec(e.key);
    if (m) names.add(m[1]!);
  }
  const out: string[] = [];
  for (const name of names) out.push(`filter.${name}.clean=`, `filter.${name}.smudge=`, `filter.${name}.process=`, `filter.${name}.required=false`);
  return out;
}

async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent';
    throw err;
  }
}

/** The repository's own config files, present or not: where a change must make the names be read again. */
async function repoConfigFiles(cwd: string, gitDir: string | undefined): Promise<string[] | undefined> {
  if (gitDir) return [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  // Found the way git finds it. Outside any repository: nothing to stamp, since a repository
  // made later (`git init` by a command) could be in any folder above; read every time.
  const repo = await findGitRepo(cwd);
  if (!repo) return undefined;
  return [join(cwd, '.git'), join(repo.commonDir, 'config'), join(repo.gitDir, 'config.worktree'), join(repo.top, '.git')];
}

async function stampsOf(files: readonly string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(files.map(async (f) => [f, await stampOf(f)] as const)));
}

async function unchanged(stamps: ReadonlyMap<string, string>): Promise<boolean> {
  const now = await stampsOf([...stamps.keys()]);
  for (const [file, stamp] of stamps) if (now.get(file) !== stamp) return false;
  return true;
}

/**
 * The `-c` settings for the filters of the config git will read in `cwd` (with `gitDir` when
 * the caller sets GIT_DIR). Read once and kept while none of the config files it came from
 * (nor the repository's own config file, present or not) changed; a repository config that
 * includes other files is read every time, since what it includes may be anywhere.
 */
export function repoFilterOverrides(cwd: string, gitDir: string | undefined, list: ListConfig): Promise<string[] | undefined> {
  // Where git looks for the person's config is part of what was read.
  const key = [cwd, gitDir, ...['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM'].map((k) => process.env[k])].map((x) => x ?? '').join('\0');
  // Calls started together (status and log side by side) share one look.
  let pending = inFlight.get(key);
  if (!pending) {
    pending = lookUp(key, cwd, gitDir, list).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function lookUp(key: string, cwd: string, gitDir: string | undefined, list: ListConfig): Promise<string[] | undefined> {
  const hit = cache.get(key);
  if (hit && (await unchanged(hit.stamps))) return hit.overrides;
  // The repository's files are stamped before git reads them: a change after this is seen
  // by the next call. The files git names (the person's, here) are stamped after.
  const own = await repoConfigFiles(cwd, gitDir);
  const before = await stampsOf(own ?? []);
  const text = await list();
  if (text === undefined) return undefined;
  const entries = parseConfigList(text, cwd);
  const overrides = filterOverrides(entries);
  const includes = entries.some((e) => (e.key === 'include.path' || (e.key.startsWith('includeif.') && e.key.endsWith('.path'))) && !personOwned(e, cwd));
  if (includes || !own) {
    cache.delete(key);
    return overrides;
  }
  const stamps = new Map([...(await stampsOf(entries.flatMap((e) => (e.file && !before.has(e.file) ? [e.file] : [])))), ...before]);
  if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
  cache.set(key, { stamps, overrides });
  return overrides;
}
