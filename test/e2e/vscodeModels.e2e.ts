/// <reference types="mocha" />
// A person with a model from another extension (as a Copilot user has) and nothing set up in
// Keel: the chat needs no key, the model picker shows that model, and it answers. The model
// comes from test/fixtures/extensions/keel-sample-models (installed next to Keel by the
// runner), which provides it to VS Code's Language Model API and forwards to the scripted server.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings, setWorkspaceSetting } from './support/workspaceSettings.ts';

describe('a model from VS Code in the chat', () => {
  const { workspace } = e2eEnv();
  let server: ScriptedServer;

  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, undefined); // no keel.model, no keel.baseUrl, no key
    setWorkspaceSetting(workspace, 'keelSample.endpoint', server.baseURL);
  });

  const wb = useWorkbench();

  after(async () => {
    setWorkspaceSetting(workspace, 'keelSample.endpoint', undefined);
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('lists the VS Code model in the picker, uses it without a key, and it answers', async function () {
    this.timeout(120_000);
    server.load({ turns: [reply.text('Answered through VS Code’s language model API.', { chunkSize: 6, delayMs: 40 })] });
    const chat = new ChatView(wb.page);
    await chat.open();

    const picker = chat.frame.getByTestId('model-picker');
    await picker.locator('vscode-option', { hasText: 'Sample Chat (keel-sample, VS Code)' }).waitFor({ state: 'attached', timeout: 60_000 });
    assert.strictEqual(await chat.frame.getByTestId('first-run').count(), 0, 'no first-run panel: a model is there');
    const chosen = await picker.evaluate((element) => (element as HTMLElement & { value?: string }).value);
    assert.match(chosen ?? '', /^vscode-lm\//, 'the VS Code model is the one in use');

    await chat.send('answer through VS Code');
    assert.strictEqual(await chat.finishedAnswer(), 'Answered through VS Code’s language model API.');
    assert.strictEqual(server.pendingTurns(), 0, 'the request went through the other extension to the endpoint');
  });
});
