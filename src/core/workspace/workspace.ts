import { lstat, realpath } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PathError } from './pathError';
import { assertSafePathSyntax } from './pathSyntax';
import { matchesProtectedPattern } from './protectedPaths';
import { realpathAllowMissing } from './realpathAllowMissing';
import { errorCode } from '../errorCode';

export interface WorkspaceFolder {
  /** Unique within the workspace, without slashes: the prefix tool paths may start with. */
  readonly name: string;
  /** Real (symlink-free) absolute path. */
  readonly path: string;
}

/**
 * The folders the agent may touch, and the one place paths are checked against them.
 * In a multi-root workspace one folder is the current project: relative paths start there.
 * `withCurrent()` gives the same folder set with another current project.
 */
export class Workspace {
  /** The current project's folder (the first folder unless chosen otherwise). */
  readonly root: string;

  private constructor(
    readonly folders: readonly WorkspaceFolder[],
    readonly workspaceFile: string | undefined,
    readonly current: WorkspaceFolder,
  ) {
    this.root = current.path;
  }

  static async create(folders: { path: string; name?: string }[], opts: { workspaceFile?: string } = {}): Promise<Workspace> {
    if (folders.length === 0) throw new Error('A workspace needs at least one folder.');
    const resolved: WorkspaceFolder[] = [];
    const taken = new Set<string>();
    for (const f of folders) {
      let real: string;
      try {
        real = await realpath(resolve(f.path));
      } catch (err) {
        throw new Error(`Workspace folder ${f.path} cannot be opened: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      if (resolved.some((r) => r.path === real)) continue;
      const name = uniqueName(folderName(f.name ?? basename(real)), taken);
      taken.add(name);
      resolved.push(Object.freeze({ name, path: real }));
    }
    const file = opts.workspaceFile === undefined ? undefined : resolve(opts.workspaceFile);
    return new Workspace(Object.freeze(resolved), file, resolved[0]);
  }

  /** The same folders with `nameOrPath` (a folder's name or real path) as the current project. */
  withCurrent(nameOrPath: string): Workspace {
    const folder = this.folderNamed(nameOrPath) ?? this.folders.find((f) => f.path === nameOrPath);
    if (!folder) {
      throw new PathError(`There is no workspace folder ${JSON.stringify(nameOrPath)}. ${this.listFolders()}`, nameOrPath);
    }
    return folder === this.current ? this : new Workspace(this.folders, this.workspaceFile, folder);
  }

  folderNamed(name: string): WorkspaceFolder | undefined {
    return this.folders.find((f) => f.name === name);
  }

  /**
   * Turns what the model wrote into a real absolute path inside a workspace folder.
   * Accepts absolute paths, paths relative to the current project, and (multi-root) paths
   * that start with a folder's name. `./x` is always relative to the current project. A first
   * segment that names a folder and also an entry of the current project (leading elsewhere)
   * is refused as ambiguous. Symlinks are followed; the result must still be inside a folder.
   */
  async resolve(input: string): Promise<string> {
    assertSafePathSyntax(input);
    const lexical = await this.lexicalPath(input);
    const real = await realpathAllowMissing(lexical, input);
    if (!this.folderOf(real)) {
      const shown = real === lexical ? real : `${lexical} (which resolves to ${real})`;
      throw new PathError(`Path ${JSON.stringify(input)} is outside the workspace: ${shown} is not inside ${this.describeFolders()}.`, input);
    }
    return real;
  }

  /** Path relative to its folder with forward slashes, prefixed by the folder name in multi-root. */
  display(absPath: string): string {
    const folder = this.folderOf(absPath);
    if (!folder) return absPath.split(sep).join('/');
    const rel = relative(folder.path, absPath).split(sep).join('/');
    if (this.folders.length === 1) return rel === '' ? '.' : rel;
    return rel === '' ? folder.name : `${folder.name}/${rel}`;
  }

  /** Whether changing this path always needs approval (see PROTECTED_PATH_PATTERNS); checked per folder. */
  isProtected(absPath: string): boolean {
    if (this.workspaceFile !== undefined && samePath(absPath, this.workspaceFile)) return true;
    const folder = this.folderOf(absPath);
    const rel = folder ? relative(folder.path, absPath) : absPath;
    return matchesProtectedPattern(rel.split(sep).join('/'));
  }

  /** The innermost folder containing the path, if any. */
  folderOf(absPath: string): WorkspaceFolder | undefined {
    let best: WorkspaceFolder | undefined;
    for (const f of this.folders) {
      if (isInside(f.path, absPath) && (!best || f.path.length > best.path.length)) best = f;
    }
    return best;
  }

  /** "Workspace folders: api (/x/api), web (/x/web, current project)." for error messages. */
  listFolders(): string {
    const items = this.folders.map((f) => `${f.name} (${f.path}${this.folders.length > 1 && f === this.current ? ', current project' : ''})`);
    return `Workspace folder${items.length === 1 ? '' : 's'}: ${items.join(', ')}.`;
  }

  private async lexicalPath(input: string): Promise<string> {
    if (isAbsolute(input)) return resolve(input);
    if (this.folders.length === 1) return resolve(this.root, input);
    const [first, ...rest] = input.split(/[\\/]/);
    const named = first === '.' ? undefined : this.folderNamed(first);
    if (!named) return resolve(this.root, input);
    const viaFolder = resolve(named.path, ...rest);
    const inCurrent = join(this.root, first);
    if (!(await exists(inCurrent))) return viaFolder;
    const viaCurrent = resolve(this.root, input);
    // The same place either way (a folder nested in the current project): nothing to choose.
    if ((await realpathAllowMissing(viaFolder, input)) === (await realpathAllowMissing(viaCurrent, input))) return viaFolder;
    const tail = rest.join('/');
    throw new PathError(
      `Path ${JSON.stringify(input)} is ambiguous: "${first}" is the workspace folder ${named.name} (${named.path}) and also ` +
        `an entry of the current project ${this.current.name} (${inCurrent}). Write ${JSON.stringify(`./${first}${tail ? `/${tail}` : ''}`)} ` +
        `for the one in ${this.current.name}, or the absolute path ${JSON.stringify(viaFolder)} for the folder ${named.name}. ${this.listFolders()}`,
      input,
    );
  }

  private describeFolders(): string {
    if (this.folders.length === 1) return `the workspace folder ${this.root}`;
    return `any workspace folder. ${this.listFolders()} Paths are relative to the current project ${this.current.name}, or start with a folder's name`;
  }
}

/** Folder names are path prefixes: no slashes, no `.`/`..`, never empty. */
function folderName(name: string): string {
  const cleaned = name.trim().replace(/[\\/]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'folder' : cleaned;
}

/** Two folders with the same name (two checkouts called `app`) become `app` and `app-2`. */
function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}-${n}`)) return `${name}-${n}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}

function isInside(folder: string, absPath: string): boolean {
  const rel = relative(folder, absPath);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

function samePath(a: string, b: string): boolean {
  const rel = relative(a, b);
  return rel === '';
}
