/// <reference types="mocha" />
// Issue #11 in the real VS Code: a key stored from the settings panel (SecretStorage) is paired
// with the endpoint it was set for. When keel.baseUrl points somewhere else, that key stays home.
import * as assert from 'node:assert';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { ChatPage } from './support/chatPage';
import { MODEL, activateKeel, keelHomeForRun, setModelSettings } from './support/keelSetup';

keelHomeForRun();

describe('an API key paired with its origin', () => {
  let home: ScriptedServer;
  let elsewhere: ScriptedServer;
  let page: ChatPage;

  before(async () => {
    const api = await activateKeel();
    home = await startScriptedServer({ scenario: { apiKey: 'sk-paired', turns: [] } });
    elsewhere = await startScriptedServer({ scenario: { turns: [] } });
    await setModelSettings({ baseUrl: home.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });
  after(async () => {
    await setModelSettings({ baseUrl: home.baseURL, model: MODEL });
    await page.bus.request('config.set', { key: 'apiKey', value: null });
    page?.close();
    await setModelSettings(undefined);
    await home?.close();
    await elsewhere?.close();
  });

  it('is sent to the endpoint it was stored for, and not to another one set later', async function () {
    this.timeout(120_000);
    const stored = await page.bus.request('config.set', { key: 'apiKey', value: 'sk-paired' });
    assert.strictEqual(stored.apiKeySet, true);
    home.load({ apiKey: 'sk-paired', turns: [reply.text('hello from home')] });
    await page.newChat();
    await page.sendAndSettle('hi');
    assert.strictEqual(page.text(page.last('assistant')), 'hello from home');
    assert.strictEqual(home.requests[0]?.headers.authorization, 'Bearer sk-paired');

    await setModelSettings({ baseUrl: elsewhere.baseURL, model: MODEL });
    const moved = await page.bus.request('config.get', {});
    assert.strictEqual(moved.apiKeySet, false, 'the panel shows no key for the new endpoint');
    elsewhere.load({ turns: [reply.text('hello from elsewhere')] });
    await page.newChat();
    await page.sendAndSettle('hi');
    assert.strictEqual(page.text(page.last('assistant')), 'hello from elsewhere');
    assert.strictEqual(elsewhere.requests.length, 1);
    assert.ok(!JSON.stringify(elsewhere.requests[0]!.headers).includes('sk-paired'), `no paired key elsewhere: ${JSON.stringify(elsewhere.requests[0]!.headers)}`);
  });
});
