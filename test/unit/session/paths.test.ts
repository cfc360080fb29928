import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keelHome, projectDir, sessionsDir, workspaceKey } from '../../../src/core/paths';
import { TempDirs } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('keelHome', () => {
  it('defaults to ~/.keel', () => {
    expect(keelHome({})).toBe(join(homedir(), '.keel'));
  });

  it('uses KEEL_HOME, expanding a leading ~', () => {
    expect(keelHome({ KEEL_HOME: '/srv/keel' })).toBe('/srv/keel');
    expect(keelHome({ KEEL_HOME: '~/data/keel' })).toBe(join(homedir(), 'data', 'keel'));
  });

  it('ignores a blank KEEL_HOME', () => {
    expect(keelHome({ KEEL_HOME: '  ' })).toBe(join(homedir(), '.keel'));
  });
});

describe('session folders', () => {
  it('live under projects/<key>/sessions', () => {
    expect(projectDir('/h', 'app-0123456789')).toBe(join('/h', 'projects', 'app-0123456789'));
    expect(sessionsDir('/h', 'app-0123456789')).toBe(join('/h', 'projects', 'app-0123456789', 'sessions'));
  });
});

describe('workspaceKey', () => {
  it('is a readable slug of the folder name plus 10 hex', () => {
    const root = join(dirs.make(), 'My Cool_App');
    mkdirSync(root);
    expect(workspaceKey({ root })).toMatch(/^my-cool-app-[0-9a-f]{10}$/);
  });

  it('is stable for the same folder', () => {
    const root = join(dirs.make(), 'app');
    mkdirSync(root);
    expect(workspaceKey({ root })).toBe(workspaceKey({ root: join(root, '.') }));
  });

  it('separates two folders with the same name', () => {
    const a = join(dirs.make(), 'app');
    const b = join(dirs.make(), 'app');
    mkdirSync(a);
    mkdirSync(b);
    expect(workspaceKey({ root: a })).not.toBe(workspaceKey({ root: b }));
  });

  it('gives a folder reached through a symlink the key of its real path', () => {
    const base = dirs.make();
    const real = join(base, 'real-app');
    mkdirSync(real);
    const link = join(base, 'linked');
    symlinkSync(real, link, 'dir');
    expect(workspaceKey({ root: link })).toBe(workspaceKey({ root: real }));
  });

  it('names a multi-root workspace by its .code-workspace file, not its first folder', () => {
    const base = dirs.make();
    const a = join(base, 'api');
    const b = join(base, 'web');
    mkdirSync(a);
    mkdirSync(b);
    const file = join(base, 'Platform.code-workspace');
    writeFileSync(file, '{"folders":[]}');
    const multi = workspaceKey({ root: a, workspaceFile: file });
    expect(multi).toMatch(/^platform-[0-9a-f]{10}$/);
    expect(workspaceKey({ root: b, workspaceFile: file })).toBe(multi);
    expect(multi).not.toBe(workspaceKey({ root: a }));
  });

  it('falls back to a generic slug when the name has no letters or digits', () => {
    const root = join(dirs.make(), '日本');
    mkdirSync(root);
    expect(workspaceKey({ root })).toMatch(/^workspace-[0-9a-f]{10}$/);
  });
});
