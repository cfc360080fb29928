/// <reference types="mocha" />
// An MCP server that asks the person something mid-call (elicitation), as they meet it in the
// browser: a notification names the server and its question, "Answer…" walks through the form
// in VS Code's own input boxes and pickers (the default filled in), and the server gets exactly
// what was answered. A sampling request runs on the person's model only after a dialog shows it.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
// The runner starts from the repository's root; the tests are bundled, so paths start there too.
const root = process.cwd();
const node = join(root, 'node_modules', 'node', 'bin', 'node');
const asking = join(root, 'test', 'fixtures', 'mcp', 'askingServer.mjs');
const configFile = (workspace: string) => join(workspace, '.vscode', 'mcp.json');

describe("an MCP server's question, in the browser", () => {
  const rig = useChatRig({
    openChat: false,
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, '.vscode'), { recursive: true });
      writeFileSync(configFile(workspace), JSON.stringify({ servers: { asking: { type: 'stdio', command: node, args: [asking] } } }, null, 2));
    },
    cleanup: ({ workspace }) => rmSync(configFile(workspace), { force: true }),
  });

  it('is answered field by field in VS Code prompts, and the server gets the answer', async function () {
    this.timeout(180_000);
    const page = rig.page;
    await rig.chat.open();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await rig.chat.frame.getByTestId('mcp-status').locator('summary', { hasText: 'MCP 1/1 ready' }).waitFor({ timeout: 60_000 });

    rig.server.load({
      turns: [
        reply.tool('mcp__asking__book', {}),
        reply.text('Booked.', { match: { lastToolResultIncludes: '"action":"accept"' } }),
      ],
    });
    await rig.chat.send('book me a room');
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await card.getByTestId('approve').click();

    const toast = page.locator('.notification-toast', { hasText: 'MCP server "asking" asks: Where do you want to stay?' });
    await toast.waitFor({ timeout: TIMEOUT });
    await toast.getByRole('button', { name: 'Answer…' }).click();

    const widget = page.locator('.quick-input-widget');
    const title = (text: string) => widget.locator('.quick-input-title', { hasText: text }).waitFor({ timeout: TIMEOUT });
    await title('asking: City (1/4)');
    await widget.locator('input').fill('Lisbon');
    await widget.locator('input').press('Enter');
    await title('asking: Nights (optional) (2/4)');
    assert.strictEqual(await widget.locator('input').inputValue(), '2', 'the default is filled in');
    await widget.locator('input').press('Enter');
    await title('asking: Breakfast (optional) (3/4)');
    await widget.locator('.monaco-list-row', { hasText: 'Yes' }).click();
    await title('asking: Room (4/4)');
    await widget.locator('.monaco-list-row', { hasText: 'Double room' }).click();

    assert.strictEqual(await rig.chat.finishedAnswer(), 'Booked.');
    const result = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(result, /\\"city\\":\\"Lisbon\\",\\"nights\\":2,\\"breakfast\\":true,\\"room\\":\\"double\\"/);
  });

  it("runs the server's sampling request on the person's model only after the dialog's Run", async function () {
    this.timeout(180_000);
    const page = rig.page;
    rig.server.load({
      turns: [
        reply.tool('mcp__asking__summarize', { text: 'the quarterly report' }),
        reply.text('Two lines.', { match: { lastUserIncludes: 'Summarize: the quarterly report' } }),
        reply.text('Summarized.', { match: { lastToolResultIncludes: 'summary from' } }),
      ],
    });
    await rig.chat.send('summarize the report through the server');
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    await card.getByTestId('approve').click();

    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: TIMEOUT });
    const shown = await dialog.innerText();
    assert.match(shown, /MCP server "asking" asks to run a request on your model/);
    assert.match(shown, /Summarize: the quarterly report/, 'the request is shown before it runs');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();

    assert.strictEqual(await rig.chat.finishedAnswer(), 'Summarized.');
    assert.match(JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []), /summary from [^"]*: Two lines\./);
  });
});
