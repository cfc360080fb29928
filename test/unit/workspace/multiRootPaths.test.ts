import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathError } from '../../../src/core/workspace/pathError';
import { Workspace } from '../../../src/core/workspace/workspace';

// Two projects side by side, plus a folder outside the workspace:
//   base/web (current by default)   base/api   base/outside
let base: string;
let web: string;
let api: string;
let outside: string;

async function file(path: string, content = ''): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

async function twoRoots(): Promise<Workspace> {
  return Workspace.create([{ path: web }, { path: api }]);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-multiroot-')));
  web = join(base, 'web');
  api = join(base, 'api');
  outside = join(base, 'outside');
  await file(join(web, 'src', 'app.ts'));
  await file(join(api, 'src', 'server.ts'));
  await file(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('multi-root tool paths', () => {
  it('resolves relative paths in the current project, which is the first folder until another is chosen', async () => {
    const ws = await twoRoots();
    expect(ws.current.name).toBe('web');
    expect(await ws.resolve('src/app.ts')).toBe(join(web, 'src', 'app.ts'));
    const fromApi = ws.withCurrent('api');
    expect(fromApi.root).toBe(api);
    expect(await fromApi.resolve('src/server.ts')).toBe(join(api, 'src', 'server.ts'));
    // A file that exists only in the other project is not found by a bare relative path.
    expect(await fromApi.resolve('src/app.ts')).toBe(join(api, 'src', 'app.ts'));
  });

  it('reaches another folder by its name as the first segment, from any current project', async () => {
    const ws = await twoRoots();
    expect(await ws.resolve('api/src/server.ts')).toBe(join(api, 'src', 'server.ts'));
    expect(await ws.withCurrent('api').resolve('web/src/app.ts')).toBe(join(web, 'src', 'app.ts'));
    // The current project's own name works too, and a missing file (to be created) resolves.
    expect(await ws.resolve('web/src/app.ts')).toBe(join(web, 'src', 'app.ts'));
    expect(await ws.resolve('api/new/dir/file.ts')).toBe(join(api, 'new', 'dir', 'file.ts'));
    expect(await ws.resolve('api')).toBe(api);
  });

  it('matches folder names exactly (case and whole segment)', async () => {
    const ws = await twoRoots();
    expect(await ws.resolve('API/src/server.ts')).toBe(join(web, 'API', 'src', 'server.ts'));
    expect(await ws.resolve('apis/x.ts')).toBe(join(web, 'apis', 'x.ts'));
  });

  it('refuses a prefix that also names an entry of the current project, saying how to write either', async () => {
    await file(join(web, 'api', 'routes.ts'));
    const ws = await twoRoots();
    const refused = ws.resolve('api/routes.ts');
    await expect(refused).rejects.toThrow(PathError);
    await expect(refused).rejects.toThrow(/ambiguous/);
    await expect(refused).rejects.toThrow('"./api/routes.ts"');
    await expect(refused).rejects.toThrow(join(api, 'routes.ts'));
    await expect(refused).rejects.toThrow(`api (${api})`);
    await expect(refused).rejects.toThrow(`web (${web}, current project)`);
    // Both spellings the message offers work.
    expect(await ws.resolve('./api/routes.ts')).toBe(join(web, 'api', 'routes.ts'));
    expect(await ws.resolve(join(api, 'src', 'server.ts'))).toBe(join(api, 'src', 'server.ts'));
    // So does the current project's own prefix, and from the other project nothing is ambiguous.
    expect(await ws.resolve('web/api/routes.ts')).toBe(join(web, 'api', 'routes.ts'));
    expect(await ws.withCurrent('api').resolve('api/src/server.ts')).toBe(join(api, 'src', 'server.ts'));
  });

  it('treats a prefix as ambiguous even when the entry in the current project is a file', async () => {
    await file(join(web, 'api'), 'a file named like the other folder');
    const ws = await twoRoots();
    await expect(ws.resolve('api/src/server.ts')).rejects.toThrow(/ambiguous/);
  });

  it('does not call a folder nested in the current project ambiguous: both readings are the same place', async () => {
    const nested = join(web, 'packages', 'lib');
    await file(join(nested, 'index.ts'));
    const ws = await Workspace.create([{ path: web }, { path: nested }]);
    expect(ws.folders.map((f) => f.name)).toEqual(['web', 'lib']);
    expect(await ws.resolve('lib/index.ts')).toBe(join(nested, 'index.ts'));
    expect(ws.folderOf(join(nested, 'index.ts'))?.name).toBe('lib');
    expect(ws.display(join(nested, 'index.ts'))).toBe('lib/index.ts');
  });

  it('accepts absolute paths inside any folder and refuses ones outside all folders, listing the folders', async () => {
    const ws = await twoRoots();
    expect(await ws.resolve(join(api, 'src', 'server.ts'))).toBe(join(api, 'src', 'server.ts'));
    expect(await ws.resolve(join(web, 'src', 'app.ts'))).toBe(join(web, 'src', 'app.ts'));
    const refused = ws.resolve(join(outside, 'secret.txt'));
    await expect(refused).rejects.toThrow(/outside the workspace/);
    await expect(refused).rejects.toThrow(`api (${api})`);
    await expect(refused).rejects.toThrow(/current project web/);
  });

  it('refuses climbing out of a folder with .., but allows climbing into a sibling folder of the workspace', async () => {
    const ws = await twoRoots();
    await expect(ws.resolve('api/../outside/secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(ws.resolve('../outside/secret.txt')).rejects.toThrow(/outside the workspace/);
    expect(await ws.resolve('api/../web/src/app.ts')).toBe(join(web, 'src', 'app.ts'));
    expect(await ws.resolve('../api/src/server.ts')).toBe(join(api, 'src', 'server.ts'));
  });

  it('follows symlinks: out of the second folder is refused, into the first folder is fine', async () => {
    await symlink(outside, join(api, 'escape'));
    await symlink(join(outside, 'secret.txt'), join(api, 'secret-link.txt'));
    await symlink(join(web, 'src'), join(api, 'web-src'));
    const ws = await twoRoots();
    await expect(ws.resolve('api/escape/secret.txt')).rejects.toThrow(/outside the workspace.*which resolves to/s);
    await expect(ws.resolve('api/secret-link.txt')).rejects.toThrow(PathError);
    await expect(ws.withCurrent('api').resolve('escape/new-file.txt')).rejects.toThrow(/outside the workspace/);
    expect(await ws.resolve('api/web-src/app.ts')).toBe(join(web, 'src', 'app.ts'));
  });

  it('takes a folder opened through a link as its real path, and still refuses .. out of it', async () => {
    await symlink(outside, join(base, 'linked'));
    const ws = await Workspace.create([{ path: web }, { path: join(base, 'linked'), name: 'linked' }]);
    // The folder itself is the real path behind the link, so it is inside the workspace by definition.
    expect(ws.folderNamed('linked')?.path).toBe(outside);
    expect(await ws.resolve('linked/secret.txt')).toBe(join(outside, 'secret.txt'));
    await expect(ws.resolve('linked/../web/../../etc/passwd')).rejects.toThrow(/outside the workspace/);
  });

  it('protects settings, git internals and rules files in the second folder as in the first', async () => {
    const ws = await twoRoots();
    for (const rel of ['.vscode/settings.json', '.git/config', 'AGENTS.md', '.keel/config.json', 'sub/CLAUDE.md', 'team.code-workspace']) {
      expect(ws.isProtected(await ws.resolve(`api/${rel}`)), `api/${rel}`).toBe(true);
      expect(ws.isProtected(await ws.resolve(rel)), `web/${rel}`).toBe(true);
    }
    expect(ws.isProtected(await ws.resolve('api/src/server.ts'))).toBe(false);
    expect(ws.isProtected(await ws.withCurrent('api').resolve('.vscode/tasks.json'))).toBe(true);
  });

  it('gives folders with the same name distinct prefixes, and keeps slashes out of names', async () => {
    const other = join(base, 'other', 'web');
    await file(join(other, 'only-here.txt'));
    const ws = await Workspace.create([{ path: web }, { path: other }, { path: api, name: 'back/end' }]);
    expect(ws.folders.map((f) => f.name)).toEqual(['web', 'web-2', 'back-end']);
    expect(await ws.resolve('web-2/only-here.txt')).toBe(join(other, 'only-here.txt'));
    expect(await ws.resolve('back-end/src/server.ts')).toBe(join(api, 'src', 'server.ts'));
  });

  it('lists the same folder once', async () => {
    const ws = await Workspace.create([{ path: web }, { path: join(web, '.') }, { path: api }]);
    expect(ws.folders.map((f) => f.name)).toEqual(['web', 'api']);
  });

  it('round-trips displayed paths whatever the current project', async () => {
    const ws = await twoRoots();
    for (const current of ['web', 'api']) {
      const scoped = ws.withCurrent(current);
      for (const abs of [join(web, 'src', 'app.ts'), join(api, 'src', 'server.ts'), api]) {
        expect(await scoped.resolve(scoped.display(abs))).toBe(abs);
      }
    }
    expect(ws.display(join(api, 'src', 'server.ts'))).toBe('api/src/server.ts');
  });

  it('refuses to make an unknown folder current, naming the folders that exist', async () => {
    const ws = await twoRoots();
    expect(() => ws.withCurrent('docs')).toThrow(/no workspace folder "docs".*web \(.*api \(/s);
    expect(ws.withCurrent(api).current.name).toBe('api');
    expect(ws.withCurrent('web')).toBe(ws);
  });

  it('gives folder names no meaning in a single-folder workspace', async () => {
    const ws = await Workspace.create([{ path: web }]);
    expect(await ws.resolve('web/src/app.ts')).toBe(join(web, 'web', 'src', 'app.ts'));
  });
});
