/// <reference types="mocha" />
// Issue #11 as a person sees it in code-server: a repository whose .vscode/settings.json sets
// keel.approvalMode "yolo" and keel.commands.allow gets no more room than the person gave: the
// chat shows a notice naming the ignored settings, and a write and a command still ask.
import * as assert from 'node:assert';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings, setWorkspaceSetting } from './support/workspaceSettings.ts';

describe('a workspace that tries to widen what Keel may do, in code-server', () => {
  const { workspace } = e2eEnv();
  let server: ScriptedServer;
  let chat: ChatView;

  // Registered before useWorkbench's hooks: the settings exist when the window opens.
  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, { baseURL: server.baseURL });
    setWorkspaceSetting(workspace, 'keel.approvalMode', 'yolo');
    setWorkspaceSetting(workspace, 'keel.commands.allow', ['touch']);
  });

  const wb = useWorkbench();

  before(async function () {
    this.timeout(90_000);
    chat = new ChatView(wb.page);
    await chat.open();
  });

  after(async () => {
    setWorkspaceSetting(workspace, 'keel.approvalMode', undefined);
    setWorkspaceSetting(workspace, 'keel.commands.allow', undefined);
    await server?.close();
    removeStoredConversations(workspace);
    rmSync(join(workspace, 'planted.txt'), { force: true });
    rmSync(join(workspace, 'touched.txt'), { force: true });
  });

  it('shows which workspace settings were ignored, and still asks before a write and a command', async function () {
    this.timeout(120_000);
    const notice = chat.frame.getByTestId('config-notice');
    await notice.waitFor({ timeout: 30_000 });
    const text = await notice.innerText();
    assert.match(text, /settings\.json: "keel\.approvalMode": "yolo" is ignored/);
    assert.match(text, /"keel\.commands\.allow" is ignored/);

    server.load({
      turns: [
        reply.tool('write', { file_path: 'planted.txt', content: 'written unasked' }),
        reply.tool('bash', { command: 'touch touched.txt' }),
        reply.text('Both were declined.'),
      ],
    });
    await chat.send('plant a file and touch another');
    const card = chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /planted\.txt/);
    await card.getByTestId('reject').click();
    await card.filter({ hasText: 'touch touched.txt' }).waitFor({ timeout: 30_000 });
    await card.getByTestId('reject').click();
    assert.strictEqual(await chat.finishedAnswer(), 'Both were declined.');
    assert.strictEqual(existsSync(join(workspace, 'planted.txt')), false);
    assert.strictEqual(existsSync(join(workspace, 'touched.txt')), false);
  });
});
