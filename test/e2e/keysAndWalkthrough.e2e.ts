/// <reference types="mocha" />
// First steps as a person takes them: Ctrl+Alt+K brings up the Keel chat from anywhere,
// Ctrl+Alt+Shift+K starts a new one, and "Get started with Keel" walks through connecting a
// model (a keyless local server is the first path it names), chatting, reviewing, planning
// and sessions.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { runCommand } from './harness/workbench.ts';
import { ChatView } from './support/chatView.ts';
import { openWalkthrough } from './support/palette.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;

describe('keys and the walkthrough', () => {
  const { workspace } = e2eEnv();
  let server: ScriptedServer;
  let chat: ChatView;

  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, { baseURL: server.baseURL });
  });

  const wb = useWorkbench();

  before(async function () {
    this.timeout(90_000);
    chat = new ChatView(wb.page);
    await chat.open();
  });

  after(async () => {
    setModelSettings(workspace, undefined);
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('Ctrl+Alt+K shows the chat from a closed sidebar, and Ctrl+Alt+Shift+K starts a new chat', async function () {
    this.timeout(90_000);
    server.load({ turns: [reply.text('Hello there.')] });
    await chat.send('hello');
    await chat.lastAssistant().filter({ hasText: 'Hello there.' }).waitFor({ timeout: TIMEOUT });

    const sidebar = wb.page.locator('.part.sidebar');
    await runCommand(wb.page, 'View: Close Primary Side Bar');
    await sidebar.waitFor({ state: 'hidden', timeout: TIMEOUT });
    await wb.page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    await wb.page.keyboard.press('Control+Alt+K');
    await wb.page.locator('.part.sidebar [id="workbench.view.extension.keel"]').waitFor({ state: 'visible', timeout: TIMEOUT });
    // The page is drawn again from the host's snapshot: the same conversation.
    await chat.lastAssistant().filter({ hasText: 'Hello there.' }).waitFor({ timeout: TIMEOUT });

    await wb.page.keyboard.press('Control+Alt+Shift+K');
    await chat.messages().first().waitFor({ state: 'detached', timeout: TIMEOUT });
  });

  it('"Get started with Keel" lists the five steps, with a keyless local model first', async () => {
    await openWalkthrough(wb.page, 'Get started with Keel');
    const steps = wb.page.locator('.getting-started-step .step-title');
    await steps.filter({ hasText: 'Connect a model' }).first().waitFor({ timeout: TIMEOUT });
    const titles = (await steps.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    assert.deepStrictEqual(titles, ['Connect a model', 'Have a first chat', 'Review a change hunk by hunk', 'Plan before changing anything', 'Come back to a conversation']);
    const first = wb.page.locator('.getting-started-step').first();
    assert.match(await first.innerText(), /Ollama or LM Studio needs no key/);
  });
});
