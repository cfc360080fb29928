/// <reference types="mocha" />
// A person who has not configured a model yet: the chat says so and how to fix it, and
// follows the settings once they are made.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { reloadWindow } from './harness/workbench.ts';
import { setModelSettings } from './support/workspaceSettings.ts';
import { useChatRig } from './support/useChatRig.ts';

describe('Keel before a model is configured', () => {
  const rig = useChatRig({ model: 'none', openChat: false, scenario: { turns: [reply.text('Configured and answering.')] } });

  it('shows the first-run panel, and the chat works once the model settings are made', async function () {
    this.timeout(90_000);
    await rig.chat.open();

    const panel = rig.chat.frame.getByTestId('first-run');
    await panel.waitFor({ timeout: 30_000 });
    assert.match(await panel.innerText(), /Connect Keel to a model/);
    await panel.getByTestId('set-api-key').waitFor();
    await panel.getByTestId('open-settings').waitFor();

    // The endpoint is a user setting (a workspace may not set it); code-server reads its user
    // settings file when a window opens, so the window is reloaded as after editing it by hand.
    setModelSettings(rig.workspace, { baseURL: rig.server.baseURL });
    await reloadWindow(rig.page);
    await rig.chat.open();
    await rig.chat.frame.getByTestId('first-run').waitFor({ state: 'detached', timeout: 30_000 });
    await rig.chat.send('hello');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Configured and answering.');
  });
});
