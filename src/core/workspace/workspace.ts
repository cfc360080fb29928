import { realpath } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { PathError } from './pathError';
import { assertSafePathSyntax } from './pathSyntax';
import { matchesProtectedPattern } from './protectedPaths';
import { realpathAllowMissing } from './realpathAllowMissing';

export interface WorkspaceFolder {
  readonly name: string;
  /** Real (symlink-free) absolute path. */
  readonly path: string;
}

/** The folders the agent may touch, and the one place paths are checked against them. */
export class Workspace {
  readonly root: string;

  private constructor(
    readonly folders: readonly WorkspaceFolder[],
    readonly workspaceFile: string | undefined,
  ) {
    this.root = folders[0].path;
  }

  static async create(folders: { path: string; name?: string }[], opts: { workspaceFile?: string } = {}): Promise<Workspace> {
    if (folders.length === 0) throw new Error('A workspace needs at least one folder.');
    const resolved: WorkspaceFolder[] = [];
    for (const f of folders) {
      let real: string;
      try {
        real = await realpath(resolve(f.path));
      } catch (err) {
        throw new Error(`Workspace folder ${f.path} cannot be opened: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      resolved.push(Object.freeze({ name: f.name ?? basename(real), path: real }));
    }
    return new Workspace(Object.freeze(resolved), opts.workspaceFile === undefined ? undefined : resolve(opts.workspaceFile));
  }

  /**
   * Turns what the model wrote into a real absolute path inside a workspace folder.
   * Accepts absolute paths, paths relative to the first folder, and (multi-root) paths that
   * start with a folder's name. Symlinks are followed; the result must still be inside.
   */
  async resolve(input: string): Promise<string> {
    assertSafePathSyntax(input);
    const lexical = this.lexicalPath(input);
    const real = await realpathAllowMissing(lexical, input);
    if (!this.folderOf(real)) {
      const shown = real === lexical ? real : `${lexical} (which resolves to ${real})`;
      throw new PathError(
        `Path ${JSON.stringify(input)} is outside the workspace: ${shown} is not inside ${this.describeFolders()}.`,
        input,
      );
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

  /** Whether changing this path always needs approval (see PROTECTED_PATH_PATTERNS). */
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

  private lexicalPath(input: string): string {
    if (isAbsolute(input)) return resolve(input);
    if (this.folders.length > 1) {
      const [first, ...rest] = input.split(/[\\/]/);
      const named = this.folders.find((f) => f.name === first);
      if (named) return resolve(named.path, ...rest);
    }
    return resolve(this.root, input);
  }

  private describeFolders(): string {
    if (this.folders.length === 1) return `the workspace folder ${this.root}`;
    return `any workspace folder (${this.folders.map((f) => `${f.name}: ${f.path}`).join(', ')})`;
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
