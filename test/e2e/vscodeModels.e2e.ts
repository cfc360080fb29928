/// <reference types="mocha" />
// A person with a model from another extension (as a Copilot user has) and nothing set up in
// Keel: the chat needs no key, the model picker shows that model, and it answers. The model
// comes from test/fixtures/extensions/keel-sample-models (installed next to Keel by the
// runner), which provides it to VS Code's Language Model API and forwards to the scripted server.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';
import { useChatRig } from './support/useChatRig.ts';

describe('a model from VS Code in the chat', () => {
  const rig = useChatRig({
    model: 'none', // no keel.model, no keel.baseUrl, no key
    openChat: false,
    prepare: ({ workspace, server }) => setWorkspaceSetting(workspace, 'keelSample.endpoint', server.baseURL),
    cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'keelSample.endpoint', undefined),
  });

  it('lists the VS Code model in the picker, uses it without a key, and it answers', async function () {
    this.timeout(120_000);
    rig.server.load({ turns: [reply.text('Answered through VS Code’s language model API.', { chunkSize: 6, delayMs: 40 })] });
    await rig.chat.open();

    const picker = rig.chat.frame.getByTestId('model-picker');
    await rig.chat.frame
      .locator('.ui-select')
      .filter({ has: picker })
      .getByRole('option', { name: 'Sample Chat (keel-sample, VS Code)', includeHidden: true })
      .waitFor({ state: 'attached', timeout: 60_000 });
    assert.strictEqual(await rig.chat.frame.getByTestId('first-run').count(), 0, 'no first-run panel: a model is there');
    const chosen = await picker.getAttribute('data-value');
    assert.match(chosen ?? '', /^vscode-lm\//, 'the VS Code model is the one in use');

    await rig.chat.send('answer through VS Code');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Answered through VS Code’s language model API.');
    assert.strictEqual(rig.server.pendingTurns(), 0, 'the request went through the other extension to the endpoint');
  });
});
