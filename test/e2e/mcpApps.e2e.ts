/// <reference types="mocha" />
// An MCP App as a person meets it in the browser: the model calls a tool whose definition names a
// ui:// app, the card shows the app (rendered in its own sandboxed frame, sized to it, told the
// tool's result and the theme), the app cannot reach the page or the network, and its button
// calls another tool of its server, which asks the person first, as the model's call would.
import * as assert from 'node:assert';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
// The runner starts from the repository's root; the tests are bundled, so paths start there too.
const root = process.cwd();
const node = join(root, 'node_modules', 'node', 'bin', 'node');
const appServer = join(root, 'test', 'fixtures', 'mcp', 'appServer.mjs');
const configFile = (workspace: string) => join(workspace, '.vscode', 'mcp.json');
// Outside .vscode: a local server runs in the OS sandbox, where .vscode is read-only.
const callsFile = (workspace: string) => join(workspace, 'board-calls.jsonl');

describe('an MCP App on a tool card, in the browser', () => {
  const rig = useChatRig({
    openChat: false,
    prepare: ({ workspace, server }) => {
      mkdirSync(join(workspace, '.vscode'), { recursive: true });
      const args = [appServer, callsFile(workspace), server.baseURL];
      writeFileSync(configFile(workspace), JSON.stringify({ servers: { board: { type: 'stdio', command: node, args } } }, null, 2));
    },
    cleanup: ({ workspace }) => {
      rmSync(configFile(workspace), { force: true });
      rmSync(callsFile(workspace), { force: true });
    },
  });

  it('renders the app, keeps it from the page and the network, and runs its tool call after approval', async function () {
    this.timeout(180_000);
    await rig.chat.open();
    const dialog = rig.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await rig.chat.frame.getByTestId('mcp-status').locator('summary', { hasText: 'MCP 1/1 ready' }).waitFor({ timeout: 60_000 });

    rig.server.load({
      turns: [
        reply.tool('mcp__board__show_board', { title: 'Sprint 12' }),
        reply.text('The board is shown.', { match: { lastToolResultIncludes: 'Board "Sprint 12" is shown.' } }),
      ],
    });
    await rig.chat.send('show the board');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The board is shown.');

    const frame = rig.chat.frame.getByTestId('mcp-app');
    await frame.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await frame.getAttribute('sandbox'), 'allow-scripts');
    const app = rig.chat.frame.frameLocator('[data-testid="mcp-app"]');
    await app.locator('#title', { hasText: 'Board: Sprint 12' }).waitFor({ timeout: TIMEOUT });
    assert.match(await app.locator('#theme').innerText(), /^theme (dark|light)$/);
    await app.locator('#reach', { hasText: 'page blocked, network blocked' }).waitFor({ timeout: TIMEOUT });
    // Sized to its content: the height the app reported, not the starting 120 px.
    const height = await frame.evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height > 0 && height !== 120, `the frame is ${height}px tall`);

    // The app's call of add_note (not read-only) asks the person, as the model's would.
    await app.locator('#add').click();
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: TIMEOUT });
    assert.match(await card.innerText(), /add_note[\s\S]*asked by the app on its card/);
    await card.getByTestId('approve').click();
    await app.locator('#status', { hasText: 'Added: from the app' }).waitFor({ timeout: TIMEOUT });
    const calls = readFileSync(callsFile(rig.workspace), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { tool: string; args: unknown });
    assert.deepStrictEqual(calls, [
      { tool: 'show_board', args: { title: 'Sprint 12' } },
      { tool: 'add_note', args: { text: 'from the app' } },
    ]);
  });
});
