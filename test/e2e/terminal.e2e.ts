/// <reference types="mocha" />
// A command in Keel's terminal, as the person sees it in code-server: the terminal panel opens
// on the Keel terminal, focus stays where the person was, and the tool card shows the output
// live while the command runs.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

describe("commands in Keel's terminal, in code-server", () => {
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
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('shows the command in a Keel terminal without taking focus, and its output live on the card', async function () {
    this.timeout(180_000);
    server.load({
      turns: [
        reply.tool('bash', { command: 'for i in 1 2 3 4 5 6; do echo "tick-$i"; sleep 1; done; echo done-ticking' }),
        reply.text('It ticked.', { match: { lastToolResultIncludes: 'done-ticking' } }),
      ],
    });
    await chat.send('tick for me');
    const card = chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    await card.getByTestId('approve').click();

    // While it runs, the card shows what it printed so far.
    const live = chat.frame.getByTestId('tool-live-output');
    await live.filter({ hasText: 'tick-' }).waitFor({ timeout: 60_000 });

    // The workbench's terminal panel is open on the Keel terminal (its screen is drawn on a
    // canvas, so what it shows is checked through what shell integration captured, below).
    // One terminal shows as a single tab; with others (an earlier test's) it is an entry of the tab list.
    await wb.page.locator('.single-terminal-tab, .terminal-tabs-entry').filter({ hasText: 'Keel' }).first().waitFor({ timeout: 60_000 });

    assert.strictEqual(await chat.finishedAnswer(), 'It ticked.');
    const told = server.requests.at(-1)?.body.messages.filter((m) => m.role === 'tool').at(-1);
    assert.match(JSON.stringify(told?.content ?? ''), /Ran in the terminal \\"Keel\\"/);
    assert.match(await chat.toolOutput(), /tick-6\ndone-ticking/);
    assert.strictEqual(await live.count(), 0, 'the live output gave way to the result');

    // Focus stayed out of the terminal: the terminal was shown with preserveFocus.
    const focusInTerminal = await wb.page.evaluate(() => Boolean(document.activeElement?.closest('.terminal')));
    assert.strictEqual(focusInTerminal, false, 'the terminal did not take focus');
  });
});
