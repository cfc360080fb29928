import { afterEach, describe, expect, it } from 'vitest';
import { renderGitSection } from '../../../src/core/llmsContext/gitSection';
import { parseBranchLine, takeGitSnapshot } from '../../../src/core/llmsContext/gitSnapshot';
import { tempTree } from './contextFixture';
import type { TempTree } from './contextFixture';

let t: TempTree;
afterEach(() => t?.cleanup());

describe('git section from a real repository', () => {
  it('shows the branch, main branch, short status and recent commits', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    t.write('a.txt', 'one\n');
    t.git('add', '.');
    t.git('commit', '-qm', 'first commit');
    t.write('a.txt', 'two\n');
    t.git('commit', '-qam', 'second commit');
    t.git('checkout', '-qb', 'feature');
    t.write('a.txt', 'three\n');
    t.write('new.txt', 'n\n');
    const text = renderGitSection(await takeGitSnapshot(t.root));
    expect(text).toContain('Current branch: feature');
    expect(text).toContain('Main branch (usually the target of pull requests): main');
    expect(text).toMatch(/Status \(git status --short, 2 entries\):\n M a\.txt\n\?\? new\.txt/);
    const commits = text.split('Recent commits:\n')[1].split('\n');
    expect(commits[0]).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d second commit$/);
    expect(commits[1]).toMatch(/first commit$/);
  });

  it('caps the status list with a note', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    for (let i = 0; i < 60; i++) t.write(`f${String(i).padStart(2, '0')}.txt`, 'x');
    const text = renderGitSection(await takeGitSnapshot(t.root));
    expect(text).toContain('Current branch: main (no commits yet)');
    expect(text).toContain('60 entries');
    expect(text).toContain('[... 20 more entries not shown; run `git status` for all]');
    expect(text).not.toContain('Recent commits');
  });

  it('says briefly when the workspace is not a repository', async () => {
    t = tempTree();
    const snap = await takeGitSnapshot(t.root);
    expect(snap.kind).toBe('none');
    expect(renderGitSection(snap)).toBe('The workspace is not in a git repository.');
  });

  it('reports a clean tree', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'trunk');
    t.write('a.txt', 'x');
    t.git('add', '.');
    t.git('commit', '-qm', 'c');
    expect(renderGitSection(await takeGitSnapshot(t.root))).toContain('Status: clean');
  });
});

describe('parseBranchLine', () => {
  it.each([
    ['main', { branch: 'main', ahead: 0, behind: 0 }],
    ['main...origin/main', { branch: 'main', upstream: 'origin/main' }],
    ['dev...origin/dev [ahead 2, behind 3]', { branch: 'dev', upstream: 'origin/dev', ahead: 2, behind: 3 }],
    ['dev...origin/dev [behind 1]', { branch: 'dev', behind: 1, ahead: 0 }],
    ['No commits yet on main', { branch: 'main', noCommits: true }],
    ['HEAD (no branch)', { detached: true }],
  ])('%s', (line, expected) => {
    expect(parseBranchLine(line)).toMatchObject(expected);
  });
});
