import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderProjects } from '../../../src/core/llmsContext/environmentSection';
import { ProjectInfoCache, describeProjects, detectProjectTypes, gitBranchOf } from '../../../src/core/workspace/projectInfo';
import { Workspace } from '../../../src/core/workspace/workspace';

let base: string;

async function file(rel: string, content = ''): Promise<string> {
  const path = join(base, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-projinfo-')));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('project type detection', () => {
  it.each([
    [{ 'package.json': '{}', 'tsconfig.json': '{}' }, ['TypeScript (Node.js)']],
    [{ 'package.json': '{"devDependencies":{"typescript":"^5"}}' }, ['TypeScript (Node.js)']],
    [{ 'package.json': '{"dependencies":{"express":"^4"}}' }, ['JavaScript (Node.js)']],
    [{ 'package.json': '{ not json' }, ['JavaScript (Node.js)']],
    [{ 'Cargo.toml': '' }, ['Rust']],
    [{ 'pyproject.toml': '' }, ['Python']],
    [{ 'requirements.txt': '' }, ['Python']],
    [{ 'requirements-dev.txt': '' }, ['Python']],
    [{ 'go.mod': '' }, ['Go']],
    [{ 'pom.xml': '' }, ['Java (Maven)']],
    [{ 'build.gradle.kts': '' }, ['Java/Kotlin (Gradle)']],
    [{ 'App.csproj': '' }, ['C#/.NET']],
    [{ Gemfile: '' }, ['Ruby']],
    [{ 'composer.json': '' }, ['PHP']],
    [{ 'CMakeLists.txt': '' }, ['C/C++ (CMake)']],
    [{ 'package.json': '{}', 'go.mod': '', 'requirements.txt': '' }, ['JavaScript (Node.js)', 'Go', 'Python']],
    [{ 'README.md': '', 'notes.txt': '' }, []],
  ])('%j → %j', async (files, types) => {
    const dir = join(base, 'p');
    await mkdir(dir);
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    expect(await detectProjectTypes(dir)).toEqual(types);
  });

  it('looks only at the top of the folder', async () => {
    await file('p/sub/Cargo.toml');
    expect(await detectProjectTypes(join(base, 'p'))).toEqual([]);
  });
});

describe('git branch', () => {
  it('reads the branch from HEAD, a detached HEAD as its short hash, and nothing outside git', async () => {
    await file('repo/.git/HEAD', 'ref: refs/heads/feature/multi-root\n');
    await mkdir(join(base, 'repo', 'src'));
    expect(await gitBranchOf(join(base, 'repo'))).toBe('feature/multi-root');
    expect(await gitBranchOf(join(base, 'repo', 'src'))).toBe('feature/multi-root');
    await file('detached/.git/HEAD', '0123456789abcdef0123456789abcdef01234567\n');
    expect(await gitBranchOf(join(base, 'detached'))).toBe('detached at 0123456');
  });

  it('follows a linked worktree\'s .git file to its own HEAD', async () => {
    await file('main/.git/worktrees/wt/HEAD', 'ref: refs/heads/wt-branch\n');
    await file('wt/.git', `gitdir: ${join(base, 'main', '.git', 'worktrees', 'wt')}\n`);
    expect(await gitBranchOf(join(base, 'wt'))).toBe('wt-branch');
  });
});

describe('the projects the model is told about', () => {
  async function workspace(): Promise<Workspace> {
    await file('web/package.json', '{"devDependencies":{"typescript":"5"}}');
    await file('web/.git/HEAD', 'ref: refs/heads/main\n');
    await file('api/go.mod', 'module api\n');
    await file('api/.git/HEAD', 'ref: refs/heads/api-work\n');
    await mkdir(join(base, 'docs'));
    return Workspace.create([{ path: join(base, 'web') }, { path: join(base, 'api') }, { path: join(base, 'docs'), name: 'Docs' }]);
  }

  it('lists every folder with its path, type and branch, and marks the current project', async () => {
    const ws = (await workspace()).withCurrent('api');
    const projects = await describeProjects(ws);
    expect(projects).toEqual([
      { name: 'web', path: join(base, 'web'), type: 'TypeScript (Node.js)', branch: 'main', current: false },
      { name: 'api', path: join(base, 'api'), type: 'Go', branch: 'api-work', current: true },
      { name: 'Docs', path: join(base, 'docs'), current: false },
    ]);
    const text = renderProjects(projects);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Projects (a multi-root workspace: one folder per project):',
      `- web: ${join(base, 'web')} — TypeScript (Node.js); git branch main`,
      `- api (current project): ${join(base, 'api')} — Go; git branch api-work`,
      `- Docs: ${join(base, 'docs')} — type not recognised; not in git`,
    ]);
    expect(text).toMatch(/Relative tool paths start in the current project api; .*start the path with its name \(web\/src\/…\)/);
  });

  it('shows a single folder as the one project, without a current marker', async () => {
    await file('solo/Cargo.toml');
    const projects = await describeProjects(await Workspace.create([{ path: join(base, 'solo') }]));
    expect(renderProjects(projects)).toBe(`Workspace folder (the project):\n- solo: ${join(base, 'solo')} — Rust; not in git`);
  });
});

describe('the project cache used for every request', () => {
  it('notices a branch switch, a new marker file and a changed package.json', async () => {
    await file('app/.git/HEAD', 'ref: refs/heads/main\n');
    await file('app/package.json', '{}');
    const ws = await Workspace.create([{ path: join(base, 'app') }]);
    const cache = new ProjectInfoCache();
    expect(await cache.describe(ws)).toMatchObject([{ type: 'JavaScript (Node.js)', branch: 'main' }]);

    await file('app/.git/HEAD', 'ref: refs/heads/feature-x\n');
    expect((await cache.describe(ws))[0]).toMatchObject({ branch: 'feature-x' });
    await file('app/go.mod', 'module app\n');
    expect((await cache.describe(ws))[0]).toMatchObject({ type: 'JavaScript (Node.js) + Go' });
    await file('app/package.json', '{"devDependencies":{"typescript":"5"}}');
    expect((await cache.describe(ws))[0]).toMatchObject({ type: 'TypeScript (Node.js) + Go' });
    expect((await cache.describe(ws.withCurrent('app')))[0]?.current).toBe(true);
  });
});
