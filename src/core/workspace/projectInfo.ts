import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../errors';
import { stampAll, stampsHold } from '../llmsContext/fileStamps';
import type { Stamp } from '../llmsContext/fileStamps';
import { findGitRepo } from '../llmsContext/gitRepo';
import type { Workspace, WorkspaceFolder } from './workspace';
import { errorCode } from '../errorCode';

/** One workspace folder as the conversation and the model see it. */
export interface ProjectInfo {
  name: string;
  /** Real absolute path. */
  path: string;
  /** What its files say it is ("TypeScript (Node.js)", "Rust", "Python + Go"), or undefined when nothing was recognised. */
  type?: string;
  /** The checked-out branch, `detached at <sha>`, or undefined outside git. */
  branch?: string;
  current: boolean;
  /** Why the type or branch could not be read. */
  problem?: string;
}

/** Marker files at a folder's top, in the order types are listed. A folder may match several. */
const markers: { type: string; files: RegExp }[] = [
  { type: 'Rust', files: /^Cargo\.toml$/ },
  { type: 'Go', files: /^go\.mod$/ },
  { type: 'Python', files: /^(pyproject\.toml|requirements[\w.-]*\.txt|setup\.py|setup\.cfg|Pipfile)$/ },
  { type: 'Java (Maven)', files: /^pom\.xml$/ },
  { type: 'Java/Kotlin (Gradle)', files: /^(build\.gradle|build\.gradle\.kts|settings\.gradle(\.kts)?)$/ },
  { type: 'C#/.NET', files: /\.(csproj|fsproj|sln)$/ },
  { type: 'Ruby', files: /^Gemfile$/ },
  { type: 'PHP', files: /^composer\.json$/ },
  { type: 'Elixir', files: /^mix\.exs$/ },
  { type: 'Dart/Flutter', files: /^pubspec\.yaml$/ },
  { type: 'Swift', files: /^Package\.swift$/ },
  { type: 'C/C++ (CMake)', files: /^CMakeLists\.txt$/ },
  { type: 'Deno', files: /^deno\.jsonc?$/ },
];

/**
 * The project types a folder's top-level files point to. `package.json` counts as
 * TypeScript when there is a tsconfig.json or a typescript dependency, else JavaScript.
 */
export async function detectProjectTypes(folder: string): Promise<string[]> {
  const names = await readdir(folder);
  const found: string[] = [];
  if (names.includes('package.json')) found.push((await usesTypeScript(folder, names)) ? 'TypeScript (Node.js)' : 'JavaScript (Node.js)');
  for (const m of markers) if (names.some((n) => m.files.test(n))) found.push(m.type);
  return found;
}

async function usesTypeScript(folder: string, names: readonly string[]): Promise<boolean> {
  if (names.some((n) => /^tsconfig(\.[\w-]+)?\.json$/.test(n))) return true;
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
  } catch {
    // An unreadable or broken package.json still says Node.js; only the TypeScript hint is lost.
    return false;
  }
  if (typeof manifest !== 'object' || manifest === null) return false;
  const m = manifest as Record<string, unknown>;
  return ['dependencies', 'devDependencies', 'peerDependencies'].some((k) => typeof m[k] === 'object' && m[k] !== null && 'typescript' in m[k]);
}

/** The branch checked out in the folder's repository, read from HEAD (no git process). */
export async function gitBranchOf(folder: string): Promise<string | undefined> {
  const repo = await findGitRepo(folder);
  if (!repo) return undefined;
  let head: string;
  try {
    head = (await readFile(join(repo.gitDir, 'HEAD'), 'utf8')).trim();
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return undefined;
    throw err;
  }
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref) return ref[1];
  return /^[0-9a-f]{7,}$/.test(head) ? `detached at ${head.slice(0, 7)}` : undefined;
}

export async function describeProject(folder: WorkspaceFolder, current: boolean): Promise<ProjectInfo> {
  const problems: string[] = [];
  const [types, branch] = await Promise.all([
    detectProjectTypes(folder.path).catch((err: unknown) => {
      problems.push(`its files: ${errorMessage(err)}`);
      return [] as string[];
    }),
    gitBranchOf(folder.path).catch((err: unknown) => {
      problems.push(`its git branch: ${errorMessage(err)}`);
      return undefined;
    }),
  ]);
  const info: ProjectInfo = { name: folder.name, path: folder.path, current };
  if (types.length > 0) info.type = types.join(' + ');
  if (branch !== undefined) info.branch = branch;
  if (problems.length > 0) info.problem = `could not read ${problems.join('; ')}`;
  return info;
}

/** Every folder of the workspace as a project, in the workspace's order; `workspace.current` is marked. */
export function describeProjects(workspace: Workspace): Promise<ProjectInfo[]> {
  return Promise.all(workspace.folders.map((f) => describeProject(f, f === workspace.current)));
}

/**
 * describeProjects for every request: a folder is described again only when its top-level
 * entries, its package.json or its repository's HEAD changed (three stats instead of a
 * listing, a walk up to `.git` and file reads). `clear()` forgets everything.
 */
export class ProjectInfoCache {
  private readonly byFolder = new Map<string, { info: ProjectInfo; stamps: Map<string, Stamp> }>();

  clear(): void {
    this.byFolder.clear();
  }

  describe(workspace: Workspace): Promise<ProjectInfo[]> {
    return Promise.all(workspace.folders.map((f) => this.one(f, f === workspace.current)));
  }

  private async one(folder: WorkspaceFolder, current: boolean): Promise<ProjectInfo> {
    const cached = this.byFolder.get(folder.path);
    if (cached && (await stampsHold(cached.stamps))) return { ...cached.info, current };
    // A repository that cannot be found is reported by describeProject below (and not cached).
    const repo = await findGitRepo(folder.path).catch(() => undefined);
    // Stamps first: a change while describing shows up as a changed stamp next time.
    const stamps = await stampAll([folder.path, join(folder.path, 'package.json'), ...(repo ? [join(repo.gitDir, 'HEAD')] : [])]);
    const info = await describeProject(folder, current);
    if (!info.problem) this.byFolder.set(folder.path, { info, stamps });
    return info;
  }
}
