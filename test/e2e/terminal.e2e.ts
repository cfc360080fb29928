/// <reference types="mocha" />
// A command in Keel's terminal, as the person sees it in code-server: the terminal panel opens
// on the Keel terminal, focus stays where the person was, and the tool card shows the output
// live while the command runs.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

describe("commands in Keel's terminal, in code-server", () => {
  const rig = useChatRig();

  it('shows the command in a Keel terminal without taking focus, and its output live on the card', async function () {
    this.timeout(180_000);
    rig.server.load({
      turns: [
        reply.tool('bash', { command: 'for i in 1 2 3 4 5 6; do echo "tick-$i"; sleep 1; done; echo done-ticking' }),
        reply.text('It ticked.', { match: { lastToolResultIncludes: 'done-ticking' } }),
      ],
    });
    await rig.chat.send('tick for me');
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    await card.getByTestId('approve').click();

    // While it runs, the card shows what it printed so far.
    const live = rig.chat.frame.getByTestId('tool-live-output');
    await live.filter({ hasText: 'tick-' }).waitFor({ timeout: 60_000 });

    // The workbench's terminal panel is open on the Keel terminal (its screen is drawn on a
    // canvas, so what it shows is checked through what shell integration captured, below).
    // One terminal shows as a single tab; with others (an earlier test's) it is an entry of the tab list.
    await rig.page.locator('.single-terminal-tab, .terminal-tabs-entry').filter({ hasText: 'Keel' }).first().waitFor({ timeout: 60_000 });

    assert.strictEqual(await rig.chat.finishedAnswer(), 'It ticked.');
    const told = rig.server.requests.at(-1)?.body.messages.filter((m) => m.role === 'tool').at(-1);
    assert.match(JSON.stringify(told?.content ?? ''), /Ran in the terminal \\"Keel\\"/);
    assert.match(await rig.chat.toolOutput(), /tick-6\ndone-ticking/);
    assert.strictEqual(await live.count(), 0, 'the live output gave way to the result');

    // Focus stayed out of the terminal: the terminal was shown with preserveFocus.
    const focusInTerminal = await rig.page.evaluate(() => Boolean(document.activeElement?.closest('.terminal')));
    assert.strictEqual(focusInTerminal, false, 'the terminal did not take focus');
  });
});
