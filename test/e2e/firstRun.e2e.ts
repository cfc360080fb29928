/// <reference types="mocha" />
// A person who has not configured a model yet: the chat says so and how to fix it, and
// follows the settings once they are made.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { reloadWindow } from './harness/workbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

describe('Keel before a model is configured', () => {
  const { workspace } = e2eEnv();
  let server: ScriptedServer;

  before(async () => {
    server = await startScriptedServer({ scenario: { turns: [reply.text('Configured and answering.')] } });
    setModelSettings(workspace, undefined);
  });

  const wb = useWorkbench();

  after(async () => {
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('shows the first-run panel, and the chat works once the model settings are made', async function () {
    this.timeout(90_000);
    const chat = new ChatView(wb.page);
    await chat.open();

    const panel = chat.frame.getByTestId('first-run');
    await panel.waitFor({ timeout: 30_000 });
    assert.match(await panel.innerText(), /Connect Keel to a model/);
    await panel.getByTestId('set-api-key').waitFor();
    await panel.getByTestId('open-settings').waitFor();

    // The endpoint is a user setting (a workspace may not set it); code-server reads its user
    // settings file when a window opens, so the window is reloaded as after editing it by hand.
    setModelSettings(workspace, { baseURL: server.baseURL });
    await reloadWindow(wb.page);
    await chat.open();
    await chat.frame.getByTestId('first-run').waitFor({ state: 'detached', timeout: 30_000 });
    await chat.send('hello');
    assert.strictEqual(await chat.finishedAnswer(), 'Configured and answering.');
  });
});
