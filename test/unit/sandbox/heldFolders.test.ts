import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteApprovedChanges } from '../../../src/core/sandbox/approvedChanges';
import { restoreFolders, watchFolders } from '../../../src/core/sandbox/heldFolders';

// The put-back on its own, without a sandbox: what it does with approvals, links and folders that are gone.
describe('watched folders that hold protected paths', () => {
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'keel-held-folders-')));
    mkdirSync(join(ws, 'pkg', 'sub', '.vscode'), { recursive: true });
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('are put back even when the person approved a change inside one meanwhile', () => {
    const { watched, unwatched } = watchFolders([join(ws, 'pkg'), join(ws, 'pkg', 'sub')]);
    expect(unwatched).toEqual([]);
    const start = Date.now();
    renameSync(join(ws, 'pkg'), join(ws, 'moved'));
    noteApprovedChanges([join(ws, 'pkg', 'sub', '.vscode', 'settings.json')], start);
    const said = restoreFolders(watched, start);
    expect(existsSync(join(ws, 'pkg', 'sub', '.vscode'))).toBe(true);
    expect(existsSync(join(ws, 'moved'))).toBe(false);
    expect(said).toEqual([`The command moved ${join(ws, 'pkg')}, which holds protected paths, to ${join(ws, 'moved')}; Keel moved it back (nothing was deleted).`]);
  });

  it('are left where the person approved moving them', () => {
    const { watched } = watchFolders([join(ws, 'pkg')]);
    const start = Date.now();
    renameSync(join(ws, 'pkg'), join(ws, 'renamed'));
    noteApprovedChanges([join(ws, 'pkg')], start);
    expect(restoreFolders(watched, start)).toEqual([]);
    expect(existsSync(join(ws, 'renamed', 'sub', '.vscode'))).toBe(true);
  });

  it('reached through a link, or gone, are not watched (the sandbox holds them by a mount instead)', () => {
    symlinkSync(join(ws, 'pkg'), join(ws, 'link'));
    const { watched, unwatched } = watchFolders([join(ws, 'link', 'sub'), join(ws, 'absent')]);
    expect(watched).toEqual([]);
    expect(unwatched).toEqual([join(ws, 'link', 'sub'), join(ws, 'absent')]);
  });

  it('say so when one was removed and cannot be put back', () => {
    mkdirSync(join(ws, 'empty'));
    const { watched } = watchFolders([join(ws, 'empty')]);
    rmSync(join(ws, 'empty'), { recursive: true });
    mkdirSync(join(ws, 'empty'));
    const said = restoreFolders(watched, Date.now());
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/removed .*empty, which held protected paths, and Keel could not find it to put it back and moved what the command put in its place to .*empty\.keel-moved-/);
  });
});
