/// <reference types="mocha" />
import { startScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import { ChatPage } from './chatPage';
import { MODEL, activateKeel, setModelSettings } from './keelSetup';

export interface ChatFixture {
  readonly server: ScriptedServer;
  page: ChatPage;
}

/**
 * The hooks of a suite that chats with a configured model: Keel activated, a scripted model
 * server, the settings pointing at it, a chat page that knows the model is configured, and a
 * new chat before every test. Call inside `describe`; the fields are set once `before` ran.
 */
export function useConfiguredChat(): ChatFixture {
  const fixture = {} as { server: ScriptedServer; page: ChatPage };
  before(async () => {
    const api = await activateKeel();
    fixture.server = await startScriptedServer();
    await setModelSettings({ baseUrl: fixture.server.baseURL, model: MODEL });
    fixture.page = await ChatPage.open(api);
    await fixture.page.waitFor(() => fixture.page.config?.modelConfigured === true, 'the view to hear that a model is configured');
  });
  beforeEach(async () => {
    await fixture.page.newChat();
  });
  after(async () => {
    fixture.page?.close();
    await setModelSettings(undefined);
    await fixture.server?.close();
  });
  return fixture;
}
