/// <reference types="mocha" />
// An MCP server that asks the person something mid-call (elicitation), as they meet it in the
// browser: a card in the conversation shows the server's form (defaults filled in, required
// fields marked), Accept checks it first, and the server gets exactly what was filled in. A
// sampling request runs on the person's model only after its card showed it and the person
// clicked Run, with the last user message as they edited it.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { runCommand } from './harness/workbench.ts';
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

  it('is answered on a card in the chat, checked before Accept, and the server gets the values', async function () {
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
    const approval = rig.chat.approvalCard();
    await approval.waitFor({ timeout: TIMEOUT });
    await approval.getByTestId('approve').click();

    const card = rig.chat.frame.getByTestId('mcp-request');
    await card.waitFor({ timeout: TIMEOUT });
    assert.match(await card.innerText(), /MCP server asking asks[\s\S]*Where do you want to stay\?/);
    const field = (name: string) => card.getByTestId(`mcp-field-${name}`);
    assert.strictEqual(await field('nights').locator('input').inputValue(), '2', 'the default is filled in');
    // Accept with the required fields empty: the card says what is missing, nothing is sent.
    await card.getByTestId('mcp-accept').click();
    await card.getByTestId('mcp-field-city-problem').waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await card.getByTestId('mcp-field-room-problem').innerText(), 'Room is required');
    assert.strictEqual(await card.getAttribute('data-state'), 'open');

    await field('city').locator('input').fill('Lisbon');
    await field('breakfast').locator('input').check();
    await field('room').locator('select').selectOption('double');
    await card.getByTestId('mcp-accept').click();

    assert.strictEqual(await rig.chat.finishedAnswer(), 'Booked.');
    assert.strictEqual(await card.getAttribute('data-state'), 'accepted');
    const result = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(result, /\\"city\\":\\"Lisbon\\",\\"nights\\":2,\\"breakfast\\":true,\\"room\\":\\"double\\"/);
    // No VS Code prompt asked: the card did.
    assert.strictEqual(await page.locator('.quick-input-widget:visible').count(), 0);
  });

  it('a page to open is shown on its card and opened only on Open; the server hears the answer', async function () {
    this.timeout(180_000);
    const page = rig.page;
    rig.server.load({
      turns: [reply.tool('mcp__asking__pay', {}), reply.text('Paid.', { match: { lastToolResultIncludes: '"action":"accept"' } })],
    });
    await rig.chat.send('pay for the room');
    const approval = rig.chat.approvalCard();
    await approval.waitFor({ timeout: TIMEOUT });
    await approval.getByTestId('approve').click();
    const card = rig.chat.frame.locator('[data-testid="mcp-request"][data-kind="url"]');
    await card.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await card.getByTestId('mcp-url').innerText(), 'https://pay.example/confirm?id=7');
    // The page is served here, so the browser tab that opens shows its address (no network needed).
    await page.context().route('https://pay.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>pay</p>' }));
    const opened = page.context().waitForEvent('page', { timeout: TIMEOUT });
    await card.getByTestId('mcp-accept').click();
    // VS Code may first ask whether to open an outside site.
    const confirm = page.locator('.monaco-dialog-box').getByRole('button', { name: 'Open', exact: true });
    await Promise.race([opened, confirm.waitFor({ timeout: TIMEOUT }).then(() => confirm.click())]);
    const popup = await opened;
    await popup.waitForURL('https://pay.example/confirm?id=7', { timeout: TIMEOUT });
    await popup.close();
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Paid.');
  });

  it("with the chat view hidden, VS Code's own prompts ask instead, and the server gets the answer", async function () {
    this.timeout(180_000);
    const page = rig.page;
    rig.server.load({
      turns: [reply.tool('mcp__asking__book', { waitMs: 4000 }), reply.text('Booked again.', { match: { lastToolResultIncludes: '"city":"Porto"' } })],
    });
    await rig.chat.send('book another room');
    const approval = rig.chat.approvalCard();
    await approval.waitFor({ timeout: TIMEOUT });
    await approval.getByTestId('approve').click();
    await runCommand(page, 'View: Show Explorer');

    const toast = page.locator('.notification-toast', { hasText: 'MCP server "asking" asks: Where do you want to stay?' });
    await toast.waitFor({ timeout: TIMEOUT });
    await toast.getByRole('button', { name: 'Answer…' }).click();
    const widget = page.locator('.quick-input-widget');
    const title = (text: string) => widget.locator('.quick-input-title', { hasText: text }).waitFor({ timeout: TIMEOUT });
    await title('asking: City (1/4)');
    await widget.locator('input').fill('Porto');
    await widget.locator('input').press('Enter');
    await title('asking: Nights (optional) (2/4)');
    await widget.locator('input').press('Enter');
    await title('asking: Breakfast (optional) (3/4)');
    await widget.locator('.monaco-list-row', { hasText: 'No' }).click();
    await title('asking: Room (4/4)');
    await widget.locator('.monaco-list-row', { hasText: 'Single room' }).click();

    await rig.chat.open();
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Booked again.');
  });

  it("runs the server's sampling request on the person's model only after Run on its card, as edited", async function () {
    this.timeout(180_000);
    rig.server.load({
      turns: [
        reply.tool('mcp__asking__summarize', { text: 'the quarterly report' }),
        reply.text('Two lines.', { match: { lastUserIncludes: 'Summarize: the quarterly report, in two lines' } }),
        reply.text('Summarized.', { match: { lastToolResultIncludes: 'summary from' } }),
      ],
    });
    await rig.chat.send('summarize the report through the server');
    const approval = rig.chat.approvalCard();
    await approval.waitFor({ timeout: TIMEOUT });
    await approval.getByTestId('approve').click();

    const card = rig.chat.frame.locator('[data-testid="mcp-request"][data-kind="sampling"]');
    await card.waitFor({ timeout: TIMEOUT });
    const shown = await card.innerText();
    assert.match(shown, /MCP server asking asks to run a request on your model/);
    const before = rig.server.requests.length;
    const edit = card.getByTestId('mcp-sampling-edit');
    assert.strictEqual(await edit.inputValue(), 'Summarize: the quarterly report', 'the request is shown before it runs');
    assert.strictEqual(rig.server.requests.length, before, 'nothing reaches the model before Run');
    await edit.fill('Summarize: the quarterly report, in two lines');
    await card.getByTestId('mcp-accept').click();

    assert.strictEqual(await rig.chat.finishedAnswer(), 'Summarized.');
    const sampled = JSON.stringify(rig.server.requests[before]?.body.messages ?? []);
    assert.match(sampled, /Summarize: the quarterly report, in two lines/, 'the model got the request as edited');
    assert.match(JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []), /summary from [^"]*: Two lines\./);
    assert.strictEqual(await card.getAttribute('data-state'), 'accepted');
    await card.getByTestId('message-usage').waitFor({ timeout: TIMEOUT });
  });
});
