import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { EditorState } from '../../../src/core/editorState';
import type { Host } from '../../../src/core/host';
import { LlmsContext } from '../../../src/core/llmsContext/llmsContext';
import type { LlmsContextOptions } from '../../../src/core/llmsContext/llmsContext';
import { takeGitSnapshot } from '../../../src/core/llmsContext/gitSnapshot';
import type { ContextSection, GatheredContext } from '../../../src/core/llmsContext/contextTypes';
import { renderSections } from '../../../src/core/llmsContext/renderContext';
const renderContext = (g: { sections: Parameters<typeof renderSections>[0] }) => renderSections(g.sections).join('\n');
import { Workspace } from '../../../src/core/workspace/workspace';
import { tempTree } from './contextFixture';
import type { TempTree } from './contextFixture';

let t: TempTree;
afterEach(() => t?.cleanup());

async function make(over: Partial<LlmsContextOptions> = {}, host: Host = createFsHost()) {
  const workspace = await Workspace.create([{ path: t.root }]);
  const home = join(t.root, '..', 'home');
  mkdirSync(home, { recursive: true });
  let gitRuns = 0;
  let now = 1_000_000;
  const ctx = new LlmsContext({
    workspace,
    host,
    home,
    clock: () => now,
    gitSnapshot: async (folder, signal) => {
      gitRuns++;
      return takeGitSnapshot(folder, signal);
    },
    ...over,
  });
  return { ctx, home, workspace, gitRuns: () => gitRuns, advance: (ms: number) => (now += ms) };
}

const section = (g: GatheredContext, id: string): ContextSection => {
  const s = g.sections.find((x) => x.id === id);
  if (!s) throw new Error(`no section ${id} in ${g.sections.map((x) => x.id).join(', ')}`);
  return s;
};

describe('LlmsContext sections', () => {
  it('gathers environment, git, structure, rules and README, each within budget', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    t.write('README.md', '# Demo\nA demo project.\n');
    t.write('AGENTS.md', 'Use tabs.\n');
    t.write('.keel/rules/testing.md', 'Run npm test.\n');
    t.write('src/index.ts', 'export {};\n');
    t.write('.gitignore', 'dist/\n*.log\n');
    t.write('dist/out.js', '');
    t.write('debug.log', '');
    const { ctx } = await make();
    const g = await ctx.gather();
    expect(g.sections.map((s) => s.id)).toEqual(['environment', 'git', 'structure', 'rules', 'readme']);
    expect(section(g, 'environment').text).toMatch(/Date: \d{4}-\d\d-\d\d/);
    expect(section(g, 'environment').text).toContain(`- ws: ${t.root}`);
    expect(section(g, 'git').text).toContain('Current branch: main');
    const tree = section(g, 'structure').text;
    expect(tree).toContain('ws/\n  .keel/\n');
    expect(tree).toContain('  src/\n');
    expect(tree).toContain('    index.ts');
    expect(tree).not.toContain('dist');
    expect(tree).not.toContain('debug.log');
    expect(section(g, 'readme').text).toBe('From README.md:\n# Demo\nA demo project.');
    expect(g.rules.map((r) => [r.display, r.scope, r.status])).toEqual([
      ['AGENTS.md', 'workspace', 'included'],
      ['.keel/rules/testing.md', 'workspace', 'included'],
    ]);
    expect(section(g, 'rules').text).toContain('<rules file="AGENTS.md" scope="workspace">\nUse tabs.\n</rules>');
    for (const s of g.sections) expect(s.tokens).toBeLessThanOrEqual(s.budget);
    expect(renderContext(g)).toContain('<directory_structure>\nFiles in the workspace');
  });

  it('cuts each section to its own budget with a note', async () => {
    t = tempTree();
    for (let d = 0; d < 30; d++) for (let f = 0; f < 30; f++) t.write(`pkg${d}/file${f}.ts`, '');
    t.write('README.md', Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of the readme.`).join('\n'));
    const { ctx } = await make({ budgets: { structure: 300, readme: 100 } });
    const g = await ctx.gather();
    const tree = section(g, 'structure');
    expect(tree.cut).toBe(true);
    expect(tree.tokens).toBeLessThanOrEqual(300);
    expect(tree.text).toMatch(/\[cut to fit 300 tokens: \d+ of \d+ lines shown; use ls or glob to see more\]$/);
    const readme = section(g, 'readme');
    expect(readme.cut).toBe(true);
    expect(readme.text).toMatch(/\[cut to fit 100 tokens: \d+ of 400 lines shown; read README.md for the rest\]$/);
    expect(section(g, 'git').text).toBe('The workspace is not in a git repository.');
  });

  it('lists breadth-first: every top-level entry before deep ones, crowded folders summarized', async () => {
    t = tempTree();
    for (let i = 0; i < 60; i++) t.write(`big/f${String(i).padStart(2, '0')}.txt`);
    t.write('a/b/c/d/deep.txt');
    t.write('z.txt');
    const { ctx } = await make({ tree: { maxEntries: 50, maxPerDir: 10 } });
    const tree = section(await ctx.gather(), 'structure').text;
    expect(tree).toContain('  a/\n');
    expect(tree).toContain('  z.txt');
    expect(tree).toContain('    [… 50 more files]');
    expect(tree).not.toContain('f10.txt');
  });

  it('omits rules that do not fit and says which', async () => {
    t = tempTree();
    t.write('AGENTS.md', 'rule '.repeat(2_000));
    t.write('CLAUDE.md', 'claude '.repeat(2_000));
    t.write('.keel/rules/z.md', 'never reached');
    const { ctx } = await make({ budgets: { rules: 1_000 } });
    const g = await ctx.gather();
    expect(g.rules.map((r) => r.status)).toEqual(['cut', 'cut', 'omitted']);
    const rules = section(g, 'rules');
    expect(rules.cut).toBe(true);
    expect(rules.text).toContain('read AGENTS.md for the rest');
    expect(rules.text).toContain('not shown, read them before working in their folders: .keel/rules/z.md');
    expect(rules.tokens).toBeLessThanOrEqual(1_100);
  });

  it('includes the global rules from KEEL_HOME and nested rules of folders the agent touched', async () => {
    t = tempTree();
    t.write('AGENTS.md', 'root rules');
    t.write('packages/api/AGENTS.md', 'api rules');
    t.write('packages/api/src/deep/CLAUDE.md', 'deep rules');
    t.write('packages/web/AGENTS.md', 'web rules');
    t.write('packages/api/src/deep/x.ts', '');
    const { ctx, home } = await make();
    t.write('../home/AGENTS.md', 'my global rules');
    const before = await ctx.gather();
    expect(before.rules.map((r) => r.display)).toEqual(['~keel/AGENTS.md (your global rules)', 'AGENTS.md']);
    expect(before.rules[0]).toMatchObject({ scope: 'global', path: join(home, 'AGENTS.md') });

    const touched = [join(t.root, 'packages/api/src/deep')];
    const after = await ctx.gather({ touched });
    expect(after.rules.map((r) => [r.display, r.scope, r.appliesTo])).toEqual([
      ['~keel/AGENTS.md (your global rules)', 'global', undefined],
      ['AGENTS.md', 'workspace', undefined],
      ['packages/api/AGENTS.md', 'nested', 'packages/api/'],
      ['packages/api/src/deep/CLAUDE.md', 'nested', 'packages/api/src/deep/'],
    ]);
    expect(section(after, 'rules').text).toContain('applies_to="packages/api/">\napi rules');
    expect(section(after, 'rules').text).not.toContain('web rules');

    const fresh = await ctx.newRulesFor(touched, new Set([join(t.root, 'packages/api/AGENTS.md')]));
    expect(fresh.map((r) => r.rule.display)).toEqual(['packages/api/src/deep/CLAUDE.md']);
    expect(fresh[0].block).toContain('deep rules');
  });

  it('shows the editor state the host reports', async () => {
    t = tempTree();
    const file = t.write('src/a.ts', 'const x = 1;');
    const state: EditorState = {
      active: { path: file, languageId: 'typescript', cursorLine: 3, selection: { startLine: 1, endLine: 1, text: 'const x = 1;' } },
      openFiles: [file, join(t.root, 'README.md')],
      diagnostics: [
        { path: file, line: 1, column: 7, severity: 'warning', message: "'x' is unused", source: 'ts', code: '6133' },
        { path: file, line: 2, severity: 'error', message: 'Cannot find name y', source: 'ts' },
      ],
    };
    const { ctx } = await make({}, { ...createFsHost(), kind: 'vscode', editorState: async () => state });
    const text = section(await ctx.gather(), 'editor').text;
    expect(text).toContain('Active file: src/a.ts (typescript, cursor on line 3)');
    expect(text).toContain('Selected lines 1-1:\n```\nconst x = 1;\n```');
    expect(text).toContain('Other open files: README.md');
    expect(text).toMatch(/Problems in open files \(2\):\nsrc\/a\.ts:2 error \[ts\] Cannot find name y\nsrc\/a\.ts:1:7 warning \[ts 6133\] 'x' is unused/);
  });

  it('says so when the editor state cannot be had, without failing the gathering', async () => {
    t = tempTree();
    const logs: string[] = [];
    const host: Host = { ...createFsHost({ log: (_l, m) => logs.push(m) }), editorState: async () => Promise.reject(new Error('window closed')) };
    const { ctx } = await make({}, host);
    expect(section(await ctx.gather(), 'editor').text).toBe('Editor state unavailable: window closed');
    expect(logs.join('\n')).toContain('window closed');
  });

  it('adds plugin sections within their budget', async () => {
    t = tempTree();
    const { ctx } = await make();
    const g = await ctx.gather({ extra: [{ title: 'Tickets', text: 'ticket line\n'.repeat(200), budgetTokens: 50 }] });
    const s = section(g, 'plugin:Tickets');
    expect(s.cut).toBe(true);
    expect(s.tokens).toBeLessThanOrEqual(50);
    expect(renderContext(g)).toContain('<plugin_context title="Tickets">\nticket line');
  });
});

describe('LlmsContext caching', () => {
  it('runs git once per gathering and reuses the snapshot until the repository or the clock says otherwise', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    t.write('a.txt', 'a');
    const { ctx, gitRuns, advance } = await make({ gitMaxAgeMs: 10_000 });
    await ctx.gather();
    expect(gitRuns()).toBe(1);
    await ctx.gather();
    expect(gitRuns()).toBe(1);

    // Staging changes the index: the next gathering looks again.
    t.git('add', 'a.txt');
    const staged = await ctx.gather();
    expect(gitRuns()).toBe(2);
    expect(section(staged, 'git').text).toContain('A  a.txt');

    // An edit git's files do not show is picked up once the snapshot is old enough.
    t.write('b.txt', 'b');
    expect(section(await ctx.gather(), 'git').text).not.toContain('b.txt');
    advance(10_001);
    expect(section(await ctx.gather(), 'git').text).toContain('?? b.txt');
    expect(gitRuns()).toBe(3);

    // ... or at once after invalidate() (a tool wrote, or the host's file watcher fired).
    t.write('c.txt', 'c');
    ctx.invalidate();
    expect(section(await ctx.gather(), 'git').text).toContain('?? c.txt');
    expect(gitRuns()).toBe(4);
  });

  it('keeps the directory listing until a listed folder changes', async () => {
    t = tempTree();
    t.write('src/a.ts');
    const { ctx } = await make();
    expect(section(await ctx.gather(), 'structure').text).not.toContain('b.ts');
    t.write('src/b.ts');
    // Make sure the folder's mtime moves even on coarse-grained file systems.
    utimesSync(join(t.root, 'src'), new Date(), new Date(Date.now() + 5_000));
    expect(section(await ctx.gather(), 'structure').text).toContain('b.ts');
    t.write('.gitignore', 'src/\n');
    expect(section(await ctx.gather(), 'structure').text).not.toContain('src/');
  });

  it('rereads a rules file or README that changed', async () => {
    t = tempTree();
    t.write('AGENTS.md', 'version one');
    const { ctx } = await make();
    expect(section(await ctx.gather(), 'rules').text).toContain('version one');
    t.write('AGENTS.md', 'version two, longer');
    expect(section(await ctx.gather(), 'rules').text).toContain('version two, longer');
  });
});

describe('LlmsContext sharing and warm-up', () => {
  it('gatherings that overlap share one git run and one listing', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    const { ctx, gitRuns } = await make();
    const [a, b] = await Promise.all([ctx.gather(), ctx.gather(), ctx.warmUp()]);
    expect(gitRuns()).toBe(1);
    expect(section(a, 'git').text).toBe(section(b, 'git').text);
  });

  it('keeps a snapshot past gitMaxAgeMs once the host watches the files (and still drops it on invalidate)', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    const { ctx, gitRuns, advance } = await make({ gitMaxAgeMs: 1_000 });
    ctx.markWatched();
    await ctx.gather();
    advance(60_000);
    await ctx.gather();
    expect(gitRuns()).toBe(1);
    ctx.invalidate();
    await ctx.gather();
    expect(gitRuns()).toBe(2);
  });
});
