import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathError } from '../../../src/core/workspace/pathError';
import { Workspace } from '../../../src/core/workspace/workspace';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-ws-')));
  root = join(base, 'project');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(outside, 'secret.txt'), 'secret\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('Workspace.resolve', () => {
  it('accepts relative, ./-prefixed and absolute paths inside the folder', async () => {
    const ws = await Workspace.create([{ path: root }]);
    const expected = join(root, 'src', 'a.ts');
    expect(await ws.resolve('src/a.ts')).toBe(expected);
    expect(await ws.resolve('./src/../src/a.ts')).toBe(expected);
    expect(await ws.resolve(expected)).toBe(expected);
    expect(await ws.resolve('.')).toBe(root);
  });

  it('resolves a path that does not exist yet under its real parent', async () => {
    const ws = await Workspace.create([{ path: root }]);
    expect(await ws.resolve('src/new/deep/file.ts')).toBe(join(root, 'src', 'new', 'deep', 'file.ts'));
  });

  it('realpaths the workspace roots themselves', async () => {
    const linkRoot = join(base, 'link-to-project');
    await symlink(root, linkRoot);
    const ws = await Workspace.create([{ path: linkRoot }]);
    expect(ws.root).toBe(root);
    expect(await ws.resolve('src/a.ts')).toBe(join(root, 'src', 'a.ts'));
  });

  it('refuses ../ escapes and absolute paths outside, naming the path and the folders', async () => {
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve('../outside/secret.txt')).rejects.toThrow(PathError);
    const err = await ws.resolve('../outside/secret.txt').catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain('../outside/secret.txt');
    expect(String((err as Error).message)).toContain(root);
    await expect(ws.resolve(join(outside, 'secret.txt'))).rejects.toThrow(PathError);
    await expect(ws.resolve('/etc/passwd')).rejects.toThrow(/outside the workspace/);
    await expect(ws.resolve('src/../../outside')).rejects.toThrow(PathError);
  });

  it('does not confuse a sibling folder sharing the name prefix with the workspace', async () => {
    await mkdir(join(base, 'project-other'));
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve(join(base, 'project-other', 'x.txt'))).rejects.toThrow(PathError);
  });

  it('refuses a symlinked file pointing outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'innocent.txt'));
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve('innocent.txt')).rejects.toThrow(/resolves to .*secret\.txt/);
  });

  it('refuses a symlinked folder pointing outside, also for files not created yet', async () => {
    await symlink(outside, join(root, 'linked'));
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve('linked/secret.txt')).rejects.toThrow(PathError);
    await expect(ws.resolve('linked/new-file.txt')).rejects.toThrow(PathError);
  });

  it('follows a dangling symlink to where a new file would really be written', async () => {
    await symlink(join(outside, 'not-yet.txt'), join(root, 'dangling.txt'));
    await symlink(join(outside, 'missing-dir'), join(root, 'dangling-dir'));
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve('dangling.txt')).rejects.toThrow(PathError);
    await expect(ws.resolve('dangling-dir/x.txt')).rejects.toThrow(PathError);
  });

  it('accepts a symlink that stays inside the workspace', async () => {
    await symlink(join(root, 'src'), join(root, 'alias'));
    const ws = await Workspace.create([{ path: root }]);
    expect(await ws.resolve('alias/a.ts')).toBe(join(root, 'src', 'a.ts'));
  });

  it('reports a symlink loop instead of hanging', async () => {
    await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
    await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve('loop-a')).rejects.toThrow(/symbolic link loop/);
    await expect(ws.resolve('loop-a/child.txt')).rejects.toThrow(/symbolic link loop/);
  });

  it('resolves through a folder symlinked to its own ancestor without hanging', async () => {
    await symlink('..', join(root, 'src', 'up'));
    const ws = await Workspace.create([{ path: root }]);
    expect(await ws.resolve('src/up/src/up/src/up/src/a.ts')).toBe(join(root, 'src', 'a.ts'));
  });

  it.each([
    ['..\\outside\\secret.txt'],
    ['src\\..\\..\\outside'],
    ['\\\\?\\C:\\Windows'],
    ['\\\\.\\PhysicalDrive0'],
    ['//?/C:/Windows'],
    ['src/a.ts:hidden'],
    ['src/a.ts::$DATA'],
    ['src.'],
    ['src/a.ts.'],
    ['src /a.ts'],
    ['src/a.ts '],
    ['src/a\0.ts'],
    ['C:\\Windows\\win.ini'],
  ])('refuses the Windows trick %j', async (input) => {
    const ws = await Workspace.create([{ path: root }]);
    await expect(ws.resolve(input)).rejects.toThrow(PathError);
  });

  it('resolves folder-name prefixes in a multi-root workspace', async () => {
    const api = join(base, 'api');
    await mkdir(join(api, 'src'), { recursive: true });
    await writeFile(join(api, 'src', 'x.ts'), '');
    const ws = await Workspace.create([{ path: root, name: 'web' }, { path: api }]);
    expect(ws.folders.map((f) => f.name)).toEqual(['web', 'api']);
    expect(await ws.resolve('api/src/x.ts')).toBe(join(api, 'src', 'x.ts'));
    expect(await ws.resolve('web/src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(await ws.resolve('src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(await ws.resolve(join(api, 'src', 'x.ts'))).toBe(join(api, 'src', 'x.ts'));
    await expect(ws.resolve('api/../outside/secret.txt')).rejects.toThrow(/any workspace folder/);
  });
});

describe('Workspace.display', () => {
  it('shows paths relative to their folder with forward slashes', async () => {
    const ws = await Workspace.create([{ path: root }]);
    expect(ws.display(join(root, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(ws.display(root)).toBe('.');
  });

  it('prefixes the folder name in multi-root', async () => {
    const api = join(base, 'api');
    await mkdir(api);
    const ws = await Workspace.create([{ path: root, name: 'web' }, { path: api }]);
    expect(ws.display(join(root, 'src', 'a.ts'))).toBe('web/src/a.ts');
    expect(ws.display(join(api, 'x.ts'))).toBe('api/x.ts');
    expect(ws.display(api)).toBe('api');
  });
});

describe('Workspace.isProtected', () => {
  it('protects settings, git internals, rules and MCP configs, case-insensitively', async () => {
    const ws = await Workspace.create([{ path: root }]);
    const p = (rel: string) => ws.isProtected(join(root, rel));
    for (const rel of [
      '.vscode/settings.json',
      '.VSCode/tasks.json',
      '.vscode',
      'team.code-workspace',
      '.git/config',
      '.git/hooks/pre-commit',
      '.git',
      '.keel/config.json',
      '.keel/rules/style.md',
      '.keel/mcp.json',
      'AGENTS.md',
      'packages/app/agents.md',
      'CLAUDE.md',
      'docs/Claude.md',
      '.cursorrules',
      '.clinerules',
      '.clinerules/one.md',
      '.github/copilot-instructions.md',
      '.claude/settings.json',
      '.claude/skills/deploy/run.sh',
      '.github/prompts/review.prompt.md',
      '.github/agents/tester.agent.md',
      '.github/skills/x/SKILL.md',
      '.windsurf/rules/style.md',
      '.codex/agents/a.toml',
      '.mcp.json',
      'sub/.vscode/mcp.json',
    ]) {
      expect(p(rel), rel).toBe(true);
    }
    for (const rel of ['src/a.ts', 'README.md', '.github/workflows/ci.yml', 'vscode/settings.json', 'mcp.json', 'my.gitignore', '.gitignore']) {
      expect(p(rel), rel).toBe(false);
    }
  });

  it('protects the workspace file even outside the folders', async () => {
    const file = join(base, 'team.code-workspace');
    const ws = await Workspace.create([{ path: root }], { workspaceFile: file });
    expect(ws.workspaceFile).toBe(file);
    expect(ws.isProtected(file)).toBe(true);
  });
});

describe('Workspace.create', () => {
  it('fails clearly for a folder that does not exist', async () => {
    await expect(Workspace.create([{ path: join(base, 'nope') }])).rejects.toThrow(/nope/);
  });
});
