/// <reference types="mocha" />
// Keel from the person's own terminal, as they meet it in code-server: a command that fails
// there brings "Fix with Keel" to the status bar; clicking it opens a new conversation with the
// command in words and its output as the terminal chip, and what is sent carries that output.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { runCommand } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
// Works a moment (as a failing build does), writes its marker to stderr and fails with a code of
// its own; the marker is computed so that the typed command line alone never contains it.
const FAILING = "sh -c 'sleep 1; echo boom-$((6*7)) >&2; exit 3'";

describe('Keel from the terminal', () => {
  const rig = useChatRig({
    // Bash, where VS Code's shell integration reports commands and exit codes.
    prepare: ({ workspace }) => setWorkspaceSetting(workspace, 'terminal.integrated.defaultProfile.linux', 'bash'),
    cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'terminal.integrated.defaultProfile.linux', undefined),
  });

  it('a failed command offers Fix with Keel, which fills a new conversation and sends the output', async function () {
    this.timeout(180_000);
    const page = rig.page;
    await runCommand(page, 'Terminal: Create New Terminal');
    await page.locator('.terminal-wrapper.active .xterm').first().waitFor({ timeout: TIMEOUT });

    const offer = page.locator('.statusbar-item', { hasText: 'Fix with Keel' });
    // The prompt may not be drawn yet when the terminal opens: type again if nothing was reported.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.locator('.terminal-wrapper.active .xterm').first().click();
      await page.keyboard.type(FAILING);
      await page.keyboard.press('Enter');
      if (await offer.waitFor({ timeout: 15_000 }).then(() => true, () => false)) break;
    }
    await offer.waitFor({ timeout: 1_000 });
    await offer.click();

    const input = rig.chat.composer();
    await rig.chat.frame.getByTestId('mention-chip').first().waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.messages().count(), 0, 'a new conversation, and nothing sent yet');
    assert.strictEqual(await input.inputValue(), `Fix this failed command: \`${FAILING}\` (exit code 3)`);
    const chips = await rig.chat.frame.getByTestId('mention-chip').allInnerTexts();
    assert.deepStrictEqual(chips.map((c) => c.trim()), ['@terminal']);
    assert.strictEqual(await offer.count(), 0, 'the offer is gone once taken');

    rig.server.load({ turns: [reply.text('The command exits with 3 on purpose.')] });
    await input.press('Enter');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The command exits with 3 on purpose.');
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(sent, /boom-42/, `the command output reached the model: ${sent.slice(-1500)}`);
    assert.match(sent, /exit code 3/);
  });
});
