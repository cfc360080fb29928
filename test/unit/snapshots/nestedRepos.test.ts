import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import { CommandSnapshots } from '../../../src/core/snapshots/commandSnapshots';
import { FileRestore } from '../../../src/core/snapshots/fileRestore';
import { sandbox, TempDirs } from '../session/sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd, encoding: 'utf8' });
}

/** What a snapshot must never change in a repository: its index, refs and status. */
function repoState(cwd: string): string {
  const index = (() => {
    try {
      return createHash('sha256').update(readFileSync(join(cwd, '.git', 'index'))).digest('hex');
    } catch {
      return 'no index';
    }
  })();
  return [git(cwd, 'status', '--porcelain=v2', '--untracked-files=all'), index, git(cwd, 'for-each-ref')].join('\n--\n');
}

describe('git repositories inside a workspace folder', () => {
  it('are descended: what a command changes inside them is listed and undone, and their repositories stay as they were', async () => {
    const box = sandbox(dirs);
    const root = realpathSync(box.root);
    writeFileSync(join(root, 'top.txt'), 'top\n');
    // One with a commit (git records it as a commit id only), one without any commit yet.
    const lib = join(root, 'vendor', 'lib');
    mkdirSync(lib, { recursive: true });
    git(lib, 'init', '-q');
    writeFileSync(join(lib, 'lib.c'), 'int x = 1;\r\n');
    writeFileSync(join(lib, '.gitignore'), 'build/\n');
    git(lib, 'add', '-A');
    git(lib, 'commit', '-qm', 'lib');
    const fresh = join(root, 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q');
    writeFileSync(join(fresh, 'notes.md'), 'draft\n');
    const states = [repoState(lib), repoState(fresh)];

    const session = box.store.create();
    const snapshots = new CommandSnapshots({ session, folders: [{ name: 'app', path: root }], display: (p) => p.slice(root.length + 1), maxFileBytes: 1 << 20, capBytes: 50 << 20, log: () => undefined });
    const restore = new FileRestore({ session, host: createFsHost(), snapshots });
    const bracket = await snapshots.begin('call-1');
    writeFileSync(join(lib, 'lib.c'), 'int x = 2;\r\n');
    writeFileSync(join(lib, 'new.h'), '#pragma once\n');
    mkdirSync(join(lib, 'build'));
    writeFileSync(join(lib, 'build', 'lib.o'), 'object\n');
    writeFileSync(join(fresh, 'notes.md'), 'rewritten\n');
    writeFileSync(join(root, 'top.txt'), 'changed\n');
    const outcome = await bracket.end();

    expect(outcome.changes.map((c) => [c.displayPath, c.kind]).sort()).toEqual([
      ['fresh/notes.md', 'modified'],
      ['top.txt', 'modified'],
      ['vendor/lib/lib.c', 'modified'],
      ['vendor/lib/new.h', 'added'],
    ]);
    const undone = await restore.undoCall('call-1');
    expect(undone.status).toBe('reverted');
    expect(readFileSync(join(lib, 'lib.c'), 'utf8')).toBe('int x = 1;\r\n');
    expect(readFileSync(join(fresh, 'notes.md'), 'utf8')).toBe('draft\n');
    expect(readFileSync(join(root, 'top.txt'), 'utf8')).toBe('top\n');
    // Ignored inside the inner repository: neither recorded nor touched.
    expect(readFileSync(join(lib, 'build', 'lib.o'), 'utf8')).toBe('object\n');
    expect(() => readFileSync(join(lib, 'new.h'))).toThrow();
    expect([repoState(lib), repoState(fresh)]).toEqual(states);
    session.close();
  });
});
