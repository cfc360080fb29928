/// <reference types="mocha" />
// Activation and the API other extensions get from Keel.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { KeelPlugin } from '../../../src/vscode/keelApi';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { request, systemText } from './support/modelRequests';
import { EXTENSION_ID, MODEL, activateKeel, keelHomeForRun, setModelSettings } from './support/keelSetup';

keelHomeForRun();

describe('activation and the public API', () => {
  it('activates and returns API version 1 with registerPlugin', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    const api = await activateKeel();
    assert.strictEqual(extension.isActive, true);
    assert.strictEqual(api.apiVersion, 1);
    assert.strictEqual(typeof api.registerPlugin, 'function');
  });

  it('contributes its commands once active', async () => {
    await activateKeel();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['keel.newChat', 'keel.showSessions', 'keel.setApiKey', 'keel.stop', 'keel.openSettings', 'keel.showLog']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  describe('registerPlugin', () => {
    let api: KeelTestApi;
    let server: ScriptedServer;
    let page: ChatPage;

    before(async () => {
      api = await activateKeel();
      server = await startScriptedServer();
      await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
      page = await ChatPage.open(api);
    });

    after(async () => {
      page?.close();
      await setModelSettings(undefined);
      await server?.close();
    });

    it('puts a plugin into every run until its Disposable is disposed', async () => {
      const plugin: KeelPlugin = {
        name: 'integration-marker',
        systemPrompt: (prompt) => `${prompt}\n\nPLUGIN-MARKER-7f3a`,
      };
      server.load({ turns: [reply.text('with plugin'), reply.text('without plugin')] });
      await page.newChat();

      const registration = api.registerPlugin(plugin);
      assert.ok(registration instanceof vscode.Disposable, 'registerPlugin returns a vscode.Disposable');
      await page.sendAndSettle('first');
      assert.match(systemText(request(server, 0)), /PLUGIN-MARKER-7f3a/);

      registration.dispose();
      await page.sendAndSettle('second');
      assert.doesNotMatch(systemText(request(server, 1)), /PLUGIN-MARKER-7f3a/);
      assert.strictEqual(server.pendingTurns(), 0);
      assert.strictEqual(page.text(page.last('assistant')), 'without plugin');
    });

    it('refuses a plugin without a name', () => {
      assert.throws(() => api.registerPlugin({ name: ' ' }), /non-empty "name"/);
    });
  });
});
