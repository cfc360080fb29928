import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { Host } from '../../../src/core/host';
import { expandMentions } from '../../../src/core/mentions/expandMentions';
import type { MentionDeps } from '../../../src/core/mentions/expandMentions';
import { isMentionExpansion } from '../../../src/core/mentions/mentionBlock';
import { FileReadTracker } from '../../../src/core/tools/fileReadTracker';
import { Workspace } from '../../../src/core/workspace/workspace';
import { tempTree } from '../llmsContext/contextFixture';
import type { TempTree } from '../llmsContext/contextFixture';

let t: TempTree;
afterEach(() => t?.cleanup());

async function deps(host: Host = createFsHost(), extra: Partial<MentionDeps> = {}): Promise<MentionDeps> {
  return { workspace: await Workspace.create([{ path: t.root }]), host, ...extra };
}

const numbered = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;

describe('expandMentions', () => {
  it('inlines a file with line numbers and records it as read', async () => {
    t = tempTree();
    const path = t.write('src/a.ts', 'const a = 1;\nexport { a };\n');
    const reads = new FileReadTracker();
    const out = await expandMentions([{ kind: 'file', path: 'src/a.ts' }], await deps(createFsHost(), { reads }));
    expect(isMentionExpansion(out.text)).toBe(true);
    expect(out.text).toContain(`<mention kind="file" path="src/a.ts">\n${numbered(1, 'const a = 1;')}\n${numbered(2, 'export { a };')}\n</mention>`);
    expect(out.outcomes).toEqual([expect.objectContaining({ label: '@src/a.ts', status: 'included' })]);
    expect(reads.has(path)).toBe(true);
  });

  it('inlines only the mentioned lines of a range', async () => {
    t = tempTree();
    t.write('a.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    const out = await expandMentions([{ kind: 'file', path: 'a.txt', range: { startLine: 10, endLine: 12 } }], await deps());
    expect(out.text).toContain(`<mention kind="file" path="a.txt" lines="10-12">\n(lines 10-12 of 50)\n${numbered(10, 'line 10')}\n${numbered(11, 'line 11')}\n${numbered(12, 'line 12')}\n</mention>`);
  });

  it('lists a folder, respecting .gitignore', async () => {
    t = tempTree();
    t.write('pkg/.gitignore', 'build/\n');
    t.write('pkg/index.ts');
    t.write('pkg/build/out.js');
    const out = await expandMentions([{ kind: 'folder', path: 'pkg' }], await deps());
    expect(out.text).toContain('<mention kind="folder" path="pkg">\npkg/\n  .gitignore\n  index.ts\n</mention>');
  });

  it('refuses paths outside the workspace and binary files, saying why', async () => {
    t = tempTree();
    t.write('../secret.txt', 'no');
    t.write('img.bin', Buffer.from([0, 1, 2, 3]).toString('latin1'));
    const out = await expandMentions(
      [
        { kind: 'file', path: '../secret.txt' },
        { kind: 'file', path: 'img.bin' },
        { kind: 'file', path: 'missing.ts' },
      ],
      await deps(),
    );
    expect(out.outcomes.map((o) => o.status)).toEqual(['failed', 'failed', 'failed']);
    expect(out.text).toMatch(/\[could not attach @\.\.\/secret\.txt: .*outside the workspace/);
    expect(out.text).toContain('img.bin is a binary file');
    expect(out.text).toContain('missing.ts does not exist');
    expect(out.text).not.toContain('\nno\n');
  });

  it('keeps every mention within its cap and all of them within the total budget, with notes', async () => {
    t = tempTree();
    const big = Array.from({ length: 3_000 }, (_, i) => `const value${i} = ${i};`).join('\n');
    t.write('one.ts', big);
    t.write('two.ts', big);
    t.write('three.ts', big);
    const out = await expandMentions(
      [
        { kind: 'file', path: 'one.ts' },
        { kind: 'file', path: 'two.ts' },
        { kind: 'file', path: 'three.ts' },
      ],
      await deps(),
      { totalTokens: 3_000, perMentionTokens: 2_000 },
    );
    expect(out.outcomes.map((o) => o.status)).toEqual(['cut', 'cut', 'omitted']);
    expect(out.outcomes[0].tokens).toBeLessThanOrEqual(2_000);
    expect(out.tokens).toBeLessThanOrEqual(3_200);
    expect(out.text).toMatch(/\[cut to fit [\d,]+ tokens: \d+ of 3,000 lines shown; read one\.ts with an offset for the rest\]/);
    expect(out.text).toContain('<mention kind="file" path="three.ts">\n[not attached: the 3,000-token budget for mentions was used up by the mentions before it]');
    expect(out.text).toContain('@one.ts was cut, @two.ts was cut, @three.ts was left out. Use the tools to read what is missing.]');
  });

  it('expands @problems, @selection and @terminal through the host', async () => {
    t = tempTree();
    const file = t.write('src/a.ts', 'let x');
    const host: Host = {
      ...createFsHost(),
      kind: 'vscode',
      workspaceProblems: async () => [{ path: file, line: 1, column: 5, severity: 'error', message: 'Missing semicolon', source: 'eslint' }],
      editorState: async () => ({
        active: { path: file, languageId: 'typescript', selection: { startLine: 1, endLine: 1, text: 'let x' } },
        openFiles: [file],
        diagnostics: [],
      }),
      lastTerminalOutput: async () => ({ command: 'npm test', output: 'FAIL a.test.ts', exitCode: 1 }),
    };
    const out = await expandMentions([{ kind: 'problems' }, { kind: 'selection' }, { kind: 'terminal' }], await deps(host));
    expect(out.text).toContain('<mention kind="problems">\n1 problem:\nsrc/a.ts:1:5 error [eslint] Missing semicolon\n</mention>');
    expect(out.text).toContain('<mention kind="selection">\nsrc/a.ts, lines 1-1:\n```typescript\nlet x\n```\n</mention>');
    expect(out.text).toContain('<mention kind="terminal">\n$ npm test (exit code 1)\n```\nFAIL a.test.ts\n```\n</mention>');
  });

  it('says plainly that editor mentions need VS Code in the CLI', async () => {
    t = tempTree();
    const out = await expandMentions([{ kind: 'selection' }, { kind: 'terminal' }], await deps());
    expect(out.text).toContain('[could not attach @selection: @selection is only available in VS Code; this is the keel CLI]');
    expect(out.outcomes.every((o) => o.status === 'failed')).toBe(true);
  });

  it('@git shows the working-tree diff against HEAD and untracked files', async () => {
    t = tempTree();
    t.git('init', '-q', '-b', 'main');
    t.write('a.txt', 'old\n');
    t.git('add', '.');
    t.git('commit', '-qm', 'c');
    t.write('a.txt', 'new\n');
    t.write('b.txt', 'b\n');
    const out = await expandMentions([{ kind: 'git' }], await deps());
    expect(out.text).toContain('Untracked files (1):\nb.txt');
    expect(out.text).toMatch(/git diff HEAD:\ndiff --git a\/a\.txt b\/a\.txt[\s\S]*-old\n\+new/);
  });

  it('@url goes through the fetch path it is given, and says so when it is refused', async () => {
    t = tempTree();
    const asked: string[] = [];
    const out = await expandMentions(
      [
        { kind: 'url', url: 'https://example.com/ok' },
        { kind: 'url', url: 'https://example.com/no' },
      ],
      await deps(createFsHost(), {
        fetchUrl: async (url) => {
          asked.push(url);
          return url.endsWith('ok') ? { ok: true, body: 'page text', hint: '' } : { ok: false, reason: 'the person declined fetching it' };
        },
      }),
    );
    expect(asked).toEqual(['https://example.com/ok', 'https://example.com/no']);
    expect(out.text).toContain('<mention kind="url" url="https://example.com/ok">\npage text\n</mention>');
    expect(out.text).toContain('[could not attach @https://example.com/no: the person declined fetching it]');
  });

  it('attaches a mention given twice once', async () => {
    t = tempTree();
    t.write('a.txt', 'a');
    const out = await expandMentions([{ kind: 'file', path: 'a.txt' }, { kind: 'file', path: 'a.txt' }], await deps());
    expect(out.outcomes).toHaveLength(1);
  });
});
