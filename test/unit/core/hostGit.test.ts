import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteWritableFolder } from '../../../src/core/git/gitProgram';
import { hostGit } from '../../../src/core/git/hostGit';

let dir: string;
let repo: string;
let markers: string;
let evil: string;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A committed file whose filter attribute names `name`, changed since (same size: git must read it). */
function repoWithAttribute(path: string, name: string): void {
  mkdirSync(path, { recursive: true });
  git(path, 'init', '-q', '-b', 'main');
  writeFileSync(join(path, '.gitattributes'), `*.txt filter=${name}\n`);
  writeFileSync(join(path, 'f.txt'), 'aaaa\n');
  git(path, 'add', '-A');
  git(path, 'commit', '-qm', 'base');
  writeFileSync(join(path, 'f.txt'), 'bbbb\n');
}

const found = () => readdirSync(markers).sort();

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-hostgit-')));
  repo = join(dir, 'repo');
  markers = join(dir, 'markers');
  mkdirSync(markers);
  evil = join(dir, 'evil.sh');
  writeFileSync(evil, `#!/bin/sh\ntouch "${markers}/$1"\ncat\n`);
  chmodSync(evil, 0o755);
});
const personPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = personPath;
  delete process.env.GIT_DIR;
  delete process.env.GIT_CONFIG_GLOBAL;
  rmSync(dir, { recursive: true, force: true });
});

describe('hostGit', () => {
  it('refuses the git commands that could run what a repository names, before starting git', async () => {
    repoWithAttribute(repo, 'x');
    for (const args of [
      ['merge', 'HEAD'],
      ['fetch', 'origin'],
      ['submodule', 'update'],
      ['cat-file', '--filters', 'HEAD:f.txt'],
      ['ls-files', '--recurse-submodules'],
      ['worktree', 'remove', join(dir, 'wt')],
    ]) {
      const out = await hostGit(repo, args);
      expect(out.ok, args.join(' ')).toBe(false);
      expect(out.error).toMatch(/^refused: /);
    }
  });

  it('empties a filter the repository defines after a first call (the config is read again when it changed)', async () => {
    repoWithAttribute(repo, 'late');
    expect((await hostGit(repo, ['status', '--porcelain'])).stdout.toString()).toContain('f.txt');
    appendFileSync(join(repo, '.git', 'config'), `[filter "late"]\n\tclean = ${evil} late-clean\n\trequired = true\n`);
    // git itself runs it: the vector is live.
    git(repo, 'status', '--porcelain');
    expect(found()).toEqual(['late-clean']);
    rmSync(join(markers, 'late-clean'));
    const out = await hostGit(repo, ['status', '--porcelain']);
    expect(out.ok).toBe(true);
    expect(out.stdout.toString()).toContain('f.txt');
    expect(found()).toEqual([]);
  });

  it('reads an included config file every time: rewriting it between two calls names no program that runs', async () => {
    repoWithAttribute(repo, 'inc');
    writeFileSync(join(repo, 'inc.gitconfig'), '[user]\n\tname = someone\n');
    git(repo, 'config', 'include.path', '../inc.gitconfig');
    await hostGit(repo, ['status', '--porcelain']);
    writeFileSync(join(repo, 'inc.gitconfig'), `[filter "inc"]\n\tclean = ${evil} inc-clean\n`);
    git(repo, 'status', '--porcelain');
    expect(found()).toEqual(['inc-clean']);
    rmSync(join(markers, 'inc-clean'));
    expect((await hostGit(repo, ['add', '-A'], { env: { GIT_INDEX_FILE: join(dir, 'index') } })).ok).toBe(true);
    expect(found()).toEqual([]);
  });

  it('a folder that becomes a repository after a first call gets its filters emptied too', async () => {
    const folder = join(dir, 'later');
    mkdirSync(folder);
    expect((await hostGit(folder, ['status'])).ok).toBe(false);
    repoWithAttribute(folder, 'new');
    git(folder, 'config', 'filter.new.clean', `${evil} new-clean`);
    const out = await hostGit(folder, ['status', '--porcelain']);
    expect(out.ok).toBe(true);
    expect(found()).toEqual([]);
  });

  it('empties the person’s own filter too (global config, as Git LFS installs it) when a .gitattributes names it, and one from a global config inside the folder', async () => {
    repoWithAttribute(repo, 'person');
    const personConfig = join(dir, 'person.gitconfig');
    writeFileSync(personConfig, `[filter "person"]\n\tclean = ${evil} person-clean\n`);
    process.env.GIT_CONFIG_GLOBAL = personConfig;
    // (control) the person's own git runs it for the files the workspace's .gitattributes picks.
    git(repo, 'status', '--porcelain');
    expect(found()).toEqual(['person-clean']);
    rmSync(join(markers, 'person-clean'));
    await hostGit(repo, ['status', '--porcelain']);
    expect((await hostGit(repo, ['add', '-A'], { env: { GIT_INDEX_FILE: join(dir, 'index') } })).ok).toBe(true);
    expect(found()).toEqual([]);
    const inside = join(repo, 'global.gitconfig');
    writeFileSync(inside, `[filter "person"]\n\tclean = ${evil} inside-clean\n`);
    process.env.GIT_CONFIG_GLOBAL = inside;
    await hostGit(repo, ['status', '--porcelain']);
    expect(found()).toEqual([]);
  });

  it('ignores GIT_DIR and the like from the environment: the folder’s own repository is the one read', async () => {
    repoWithAttribute(repo, 'x');
    const other = join(dir, 'other');
    repoWithAttribute(other, 'y');
    process.env.GIT_DIR = join(other, '.git');
    const out = await hostGit(repo, ['rev-parse', '--absolute-git-dir']);
    expect(out.stdout.toString().trim()).toBe(join(repo, '.git'));
  });

  it('never starts a git found in the folder, in a workspace folder or through a relative PATH entry', async () => {
    repoWithAttribute(repo, 'x');
    const fake = `#!/bin/sh\ntouch "${markers}/fake-git"\nexit 1\n`;
    const other = join(dir, 'workspace2');
    for (const folder of [join(repo, 'bin'), join(other, '.venv', 'bin'), repo]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'git'), fake);
      chmodSync(join(folder, 'git'), 0o755);
    }
    noteWritableFolder(other);
    process.env.PATH = ['.', join(repo, 'bin'), join(other, '.venv', 'bin'), personPath].join(':');
    const out = await hostGit(repo, ['rev-parse', '--absolute-git-dir']);
    expect(found()).toEqual([]);
    expect(out.stdout.toString().trim()).toBe(join(repo, '.git'));
  });
});
