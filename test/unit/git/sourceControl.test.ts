// Keel in source control. "Generate Commit Message": the staged diff is described (or every
// change when nothing is staged), in the repository's own style, streamed as it is written;
// nothing to commit says so; the model's wrapping (fences, labels) is taken off. "Review
// Changes": uncommitted work, else the branch's commits since it left its base.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanCommitMessage, commitPrompt, readCommitChanges, writeCommitMessage } from '../../../src/core/git/commitMessage';
import { reviewTarget } from '../../../src/core/git/reviewTarget';
import { expandBranchDiff } from '../../../src/core/mentions/gitMention';
import { leanChatModel } from '../../../src/core/model/wire/leanModels';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

let server: ScriptedServer;
let repo: string;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => rmSync(repo, { recursive: true, force: true }));

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' });
}

function newRepo(): void {
  repo = mkdtempSync(join(tmpdir(), 'keel-commit-'));
  git('init', '-q');
  writeFileSync(join(repo, 'parse.ts'), 'export const parse = (s: string) => s;\n');
  git('add', '-A');
  git('commit', '-qm', 'feat(parser): first parser');
  writeFileSync(join(repo, 'notes.md'), 'notes\n');
  git('add', 'notes.md');
  git('commit', '-qm', 'docs: add notes');
}

describe('the changes a commit message describes', () => {
  it('takes the staged diff when something is staged, and the recent subjects newest first', async () => {
    newRepo();
    writeFileSync(join(repo, 'parse.ts'), 'export const parse = (s: string) => s.trim();\n');
    writeFileSync(join(repo, 'notes.md'), 'notes, unstaged\n');
    git('add', 'parse.ts');
    const changes = await readCommitChanges(repo);
    expect(changes?.staged).toBe(true);
    expect(changes?.diff).toContain('+export const parse = (s: string) => s.trim();');
    expect(changes?.diff).not.toContain('unstaged');
    expect(changes?.recentSubjects).toEqual(['docs: add notes', 'feat(parser): first parser']);
  });

  it('takes every change and the new files when nothing is staged, and says when there is nothing', async () => {
    newRepo();
    expect(await readCommitChanges(repo)).toBeUndefined();
    writeFileSync(join(repo, 'notes.md'), 'notes, changed\n');
    writeFileSync(join(repo, 'lexer.ts'), 'export {};\n');
    const changes = await readCommitChanges(repo);
    expect(changes?.staged).toBe(false);
    expect(changes?.diff).toContain('+notes, changed');
    expect(changes?.untracked).toEqual(['lexer.ts']);
    expect(commitPrompt(changes!)).toMatch(/nothing is staged[\s\S]*New files not yet tracked:\nlexer\.ts/);
  });
});

describe('writing the message', () => {
  it('streams the text into the box as it comes, sends the diff and the style, and returns it cleaned', async () => {
    newRepo();
    writeFileSync(join(repo, 'parse.ts'), 'export const parse = (s: string) => s.trim();\n');
    git('add', 'parse.ts');
    server.load({ turns: [reply.text('```\nfix(parser): trim input before parsing\n```', { chunkSize: 5, tokensPerSecond: 400 })] });
    const model = leanChatModel('scripted', 'scripted-model', 'compatible', { baseURL: server.baseURL, apiKey: 'k' });
    const seen: string[] = [];
    const message = await writeCommitMessage(model, (await readCommitChanges(repo))!, (soFar) => seen.push(soFar));
    expect(message).toBe('fix(parser): trim input before parsing');
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toContain('fix(parser): trim input');
    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain('feat(parser): first parser');
    expect(sent).toContain('s.trim()');
  });

  it('takes off labels, fences and quotes, and keeps a body', () => {
    expect(cleanCommitMessage('Commit message: "Add lexer"')).toBe('Add lexer');
    expect(cleanCommitMessage('```text\nAdd lexer\n\nIt splits tokens.\n```')).toBe('Add lexer\n\nIt splits tokens.');
  });
});

describe('what Review Changes looks at', () => {
  it('uncommitted work first; with none, the branch since it left main, with its diff; nothing on a clean main', async () => {
    newRepo();
    git('branch', '-M', 'main');
    expect(await reviewTarget(repo)).toEqual({ kind: 'nothing' });
    git('checkout', '-qb', 'feature');
    writeFileSync(join(repo, 'parse.ts'), 'export const parse = (s: string) => s.toLowerCase();\n');
    expect(await reviewTarget(repo)).toEqual({ kind: 'uncommitted' });
    git('commit', '-qam', 'lower-case the input');
    expect(await reviewTarget(repo)).toEqual({ kind: 'branch', branch: 'feature', base: 'main', commits: 1 });
    const body = await expandBranchDiff(repo, 'main');
    expect(body.ok && body.body).toMatch(/lower-case the input[\s\S]*git diff main\.\.\.HEAD:[\s\S]*\+export const parse = \(s: string\) => s\.toLowerCase\(\);/);
    expect(await expandBranchDiff(repo, '--output=/tmp/x')).toEqual({ ok: false, reason: '"--output=/tmp/x" is not a branch' });
  });
});
