/// <reference types="mocha" />
// First steps as a person takes them: Ctrl+Alt+K brings up the Keel chat from anywhere,
// Ctrl+Alt+Shift+K starts a new one, and "Get started with Keel" walks through connecting a
// model (a keyless local server is the first path it names), chatting, reviewing, planning
// and sessions.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';
import { runCommand } from './harness/workbench.ts';
import { openWalkthrough } from './support/palette.ts';

const TIMEOUT = 30_000;

describe('keys and the walkthrough', () => {
  const rig = useChatRig();

  it('Ctrl+Alt+K shows the chat from a closed sidebar, and Ctrl+Alt+Shift+K starts a new chat', async function () {
    this.timeout(90_000);
    rig.server.load({ turns: [reply.text('Hello there.')] });
    await rig.chat.send('hello');
    await rig.chat.lastAssistant().filter({ hasText: 'Hello there.' }).waitFor({ timeout: TIMEOUT });

    const sidebar = rig.page.locator('.part.sidebar');
    await runCommand(rig.page, 'View: Close Primary Side Bar');
    await sidebar.waitFor({ state: 'hidden', timeout: TIMEOUT });
    await rig.page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    await rig.page.keyboard.press('Control+Alt+K');
    await rig.page.locator('.part.sidebar [id="workbench.view.extension.keel"]').waitFor({ state: 'visible', timeout: TIMEOUT });
    // The page is drawn again from the host's snapshot: the same conversation.
    await rig.chat.lastAssistant().filter({ hasText: 'Hello there.' }).waitFor({ timeout: TIMEOUT });

    await rig.page.keyboard.press('Control+Alt+Shift+K');
    await rig.chat.messages().first().waitFor({ state: 'detached', timeout: TIMEOUT });
  });

  it('"Get started with Keel" lists the five steps, with a keyless local model first', async () => {
    await openWalkthrough(rig.page, 'Get started with Keel');
    const steps = rig.page.locator('.getting-started-step .step-title');
    await steps.filter({ hasText: 'Connect a model' }).first().waitFor({ timeout: TIMEOUT });
    const titles = (await steps.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    assert.deepStrictEqual(titles, ['Connect a model', 'Have a first chat', 'Review a change hunk by hunk', 'Plan before changing anything', 'Come back to a conversation']);
    const first = rig.page.locator('.getting-started-step').first();
    assert.match(await first.innerText(), /Ollama or LM Studio needs no key/);
  });
});
