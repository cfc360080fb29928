import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import { FileTextCache } from '../../../src/core/llmsContext/fileTextCache';
import { parseFrontMatter, frontList } from '../../../src/core/llmsContext/frontMatter';
import { LlmsContext } from '../../../src/core/llmsContext/llmsContext';
import { applyScopedRules, scopedRules } from '../../../src/core/llmsContext/scopedRules';
import { Workspace } from '../../../src/core/workspace/workspace';
import { tempTree } from './contextFixture';
import type { TempTree } from './contextFixture';

const fixture = join(__dirname, '../../fixtures/workspaces/bringYourSetup');

let t: TempTree;
afterEach(() => t?.cleanup());

async function fixtureWorkspace() {
  t = tempTree('keel-setup-');
  cpSync(fixture, t.root, { recursive: true });
  const workspace = await Workspace.create([{ path: t.root }]);
  return { workspace, at: (rel: string) => join(t.root, rel) };
}

describe('front matter', () => {
  it('reads scalars, flow and block lists, and keeps brace globs whole', () => {
    const { data, body } = parseFrontMatter('---\ndescription: "Say hi"\nglobs: src/*.{ts,tsx}, lib/**\ntools: [Read, \'Grep\']\npaths:\n  - "a/**"\n  - b.md\n---\nBody\n');
    expect(data.description).toBe('Say hi');
    expect(frontList(data, 'globs')).toEqual(['src/*.{ts,tsx}', 'lib/**']);
    expect(frontList(data, 'tools')).toEqual(['Read', 'Grep']);
    expect(frontList(data, 'paths')).toEqual(['a/**', 'b.md']);
    expect(body).toBe('Body\n');
  });

  it('leaves a file without front matter whole', () => {
    expect(parseFrontMatter('# Title\n---\nx')).toEqual({ data: {}, body: '# Title\n---\nx' });
  });
});

describe('scoped rules from the other agents, on the fixture repository', () => {
  it('finds each format and classifies it as its tool documents', async () => {
    const { workspace } = await fixtureWorkspace();
    const found = await scopedRules(workspace, new FileTextCache());
    expect(found.map((r) => [r.display, r.trigger, r.globs])).toEqual([
      ['.github/copilot-instructions.md', 'always', []],
      ['.windsurfrules', 'always', []],
      ['.claude/rules/api-style.md', 'files', ['packages/api/**/*.ts']],
      ['.claude/rules/testing.md', 'always', []],
      ['.github/instructions/docs.instructions.md', 'files', ['docs/**/*.md']],
      ['.github/instructions/typescript.instructions.md', 'files', ['**/*.ts', '**/*.tsx']],
      ['.cursor/rules/always.mdc', 'always', []],
      ['.cursor/rules/migrations.mdc', 'described', []],
      ['.cursor/rules/react.mdc', 'files', ['packages/web/**/*.tsx']],
      ['.clinerules/01-workflow.md', 'always', []],
      ['.windsurf/rules/sql.md', 'files', ['**/*.sql']],
    ]);
    // A Cursor rule with neither globs, description nor alwaysApply is manual: left out.
    expect(found.some((r) => r.display.endsWith('manual.mdc'))).toBe(false);
    // The model gets the text without the front matter.
    expect(found.find((r) => r.display === '.cursor/rules/always.mdc')?.body.trim()).toBe('Two-space indentation everywhere. Marker: CURSOR-ALWAYS.');
  });

  it('applies file-scoped rules only when a file in play matches, and says which', async () => {
    const { workspace, at } = await fixtureWorkspace();
    const found = await scopedRules(workspace, new FileTextCache());
    const none = applyScopedRules(found, [], workspace);
    expect(none.filter((a) => a.rule.trigger === 'files')).toEqual([]);

    const handler = applyScopedRules(found, [at('packages/api/src/handlers/users.ts')], workspace);
    expect(handler.filter((a) => a.rule.trigger === 'files').map((a) => [a.rule.display, a.rule.matched])).toEqual([
      ['.claude/rules/api-style.md', { glob: 'packages/api/**/*.ts', file: 'packages/api/src/handlers/users.ts' }],
      ['.github/instructions/typescript.instructions.md', { glob: '**/*.ts', file: 'packages/api/src/handlers/users.ts' }],
    ]);

    const web = applyScopedRules(found, [at('packages/web/src/App.tsx'), at('db/0001_init.sql')], workspace);
    expect(web.filter((a) => a.rule.trigger === 'files').map((a) => a.rule.display)).toEqual([
      '.github/instructions/typescript.instructions.md',
      '.cursor/rules/react.mdc',
      '.windsurf/rules/sql.md',
    ]);
  });
});

describe('the rules section with the other agents\' rules', () => {
  async function context(workspace: Workspace, budget?: number) {
    const home = join(t.root, '..', 'home');
    mkdirSync(home, { recursive: true });
    return new LlmsContext({
      workspace,
      host: createFsHost(),
      home,
      ...(budget ? { budgets: { rules: budget } } : {}),
      gitSnapshot: async () => ({ kind: 'none' }),
    });
  }

  it('shows what applies and why: always, by file, nearest AGENTS.md/CLAUDE.md, and the described ones listed', async () => {
    const { workspace, at } = await fixtureWorkspace();
    const ctx = await context(workspace);
    const file = at('packages/api/src/handlers/users.ts');
    const g = await ctx.gather({ touched: [at('packages/api/src/handlers')], files: [file] });
    expect(g.rules.map((r) => [r.display, r.trigger ?? r.scope, r.status])).toEqual([
      ['AGENTS.md', 'workspace', 'included'],
      ['CLAUDE.md', 'workspace', 'included'],
      ['.github/copilot-instructions.md', 'always', 'included'],
      ['.windsurfrules', 'always', 'included'],
      ['.claude/rules/testing.md', 'always', 'included'],
      ['.cursor/rules/always.mdc', 'always', 'included'],
      ['.clinerules/01-workflow.md', 'always', 'included'],
      ['.claude/rules/api-style.md', 'files', 'included'],
      ['.github/instructions/typescript.instructions.md', 'files', 'included'],
      ['packages/api/AGENTS.md', 'nested', 'included'],
      ['packages/api/src/handlers/CLAUDE.md', 'nested', 'included'],
      ['.cursor/rules/migrations.mdc', 'described', 'listed'],
    ]);
    const text = g.sections.find((s) => s.id === 'rules')?.text ?? '';
    for (const marker of ['ROOT-AGENTS', 'COPILOT-REPO', 'CLAUDE-RULES-API', 'COPILOT-TS', 'HANDLERS-CLAUDE', 'CLINE-WORKFLOW']) {
      expect(text).toContain(marker);
    }
    // Not in play: React, docs and SQL rules; the described one is named, its body is not sent.
    for (const marker of ['CURSOR-REACT', 'COPILOT-DOCS', 'WINDSURF-SQL', 'CURSOR-MIGRATIONS', 'CURSOR-MANUAL', 'alwaysApply']) {
      expect(text).not.toContain(marker);
    }
    expect(text).toContain('- .cursor/rules/migrations.mdc: How to write a database migration');
  });

  it('a rule that starts to apply when a tool touches a matching file comes with that tool\'s result, once', async () => {
    const { workspace, at } = await fixtureWorkspace();
    const ctx = await context(workspace);
    const fresh = await ctx.newRulesFor([at('packages/web/src')], new Set(), [at('packages/web/src/App.tsx')]);
    expect(fresh.map((r) => r.rule.display)).toEqual(['.github/instructions/typescript.instructions.md', '.cursor/rules/react.mdc']);
    expect(fresh[1].block).toContain('applies_to="packages/web/**/*.tsx"');
    const again = await ctx.newRulesFor([], new Set(fresh.map((r) => r.rule.path)), [at('packages/web/src/App.tsx')]);
    expect(again).toEqual([]);
  });

  it('keeps a big set within the rules budget, naming what was left out', async () => {
    const { workspace } = await fixtureWorkspace();
    for (let i = 0; i < 12; i++) t.write(`.cursor/rules/big-${String(i).padStart(2, '0')}.mdc`, `---\nalwaysApply: true\n---\n${'Long rule text. '.repeat(300)}`);
    const ctx = await context(workspace, 3_000);
    const g = await ctx.gather();
    const rules = g.sections.find((s) => s.id === 'rules');
    expect(rules?.tokens).toBeLessThanOrEqual(3_200);
    const omitted = g.rules.filter((r) => r.status === 'omitted').map((r) => r.display);
    expect(omitted.length).toBeGreaterThan(0);
    expect(rules?.text).toContain(`not shown, read them before working in their folders: ${omitted.join(', ')}`);
  });
});
