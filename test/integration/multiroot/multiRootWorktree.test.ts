/// <reference types="mocha" />
// "New Chat in Worktree" in a multi-root workspace: the worktree is made from the current
// project's folder (here api, chosen in the view), and the conversation stays one of the
// workspace's sessions (kept under the .code-workspace file's key).
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sessionsDir, workspaceKey } from '../../../src/core/paths';
import type { SessionInfo } from '../../../src/protocol/sessionState';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from '../suite/support/chatFixture';
import { activateKeel, keelHomeForRun } from '../suite/support/keelSetup';

keelHomeForRun();

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' });

function folderPath(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(folder, `the workspace has a folder named ${name}`);
  return folder.uri.fsPath;
}

describe('a worktree conversation in a multi-root workspace', () => {
  const chat = useConfiguredChat();

  before(async () => {
    const api = await activateKeel();
    await api.testHooks.setWorktreePrompts({ discard: async () => 'folderAndBranch', afterDelete: async () => undefined, loseUncommitted: async () => true });
    git(folderPath('api'), 'init', '-q');
    git(folderPath('api'), 'add', '-A');
    git(folderPath('api'), 'commit', '-q', '-m', 'api');
  });

  after(async () => {
    await chat.page?.bus.request('workspaceProject.select', { name: 'web' }).catch(() => undefined);
    rmSync(join(folderPath('api'), '.git'), { recursive: true, force: true });
  });

  it("is made from the current project's folder and kept with the workspace's sessions", async () => {
    await chat.page.bus.request('workspaceProject.select', { name: 'api' });
    const wt = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'multi');
    assert.ok(wt, 'a worktree was made');
    assert.strictEqual(realpathSync(wt.repo), realpathSync(folderPath('api')));
    assert.deepStrictEqual(readdirSync(wt.path).filter((n) => n !== '.git').sort(), readdirSync(folderPath('api')).filter((n) => n !== '.git').sort());

    chat.server.load({ turns: [reply.text('hello from the worktree')] });
    await chat.page.sendAndSettle('hello');
    let shown: SessionInfo | undefined;
    for (const e of chat.page.events) {
      if (e.name === 'snapshot') shown = (e.data as { session: SessionInfo }).session;
      if (e.name === 'session') shown = e.data as SessionInfo;
    }
    assert.strictEqual(shown?.branch, 'keel/multi');
    const home = process.env.KEEL_HOME!;
    const dir = sessionsDir(home, workspaceKey({ root: folderPath('web'), workspaceFile: vscode.workspace.workspaceFile!.fsPath }));
    assert.ok(existsSync(join(dir, `${shown!.id}.jsonl`)), 'the log is under the workspace file key');
    assert.match(readFileSync(join(dir, `${shown!.id}.jsonl`), 'utf8'), /"key":"worktree"/);

    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.ok(!existsSync(wt.path));
  });
});
