/// <reference types="mocha" />
// An MCP server in the workspace's .vscode/mcp.json, as a person meets it in the browser: the
// dialog that asks before it starts, the status list in the view, its prompt as a slash
// command and its tool used by the agent. The server is @modelcontextprotocol/server-everything.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

// The runner starts from the repository's root; the tests are bundled, so paths start there too.
const root = process.cwd();
const node = join(root, 'node_modules', 'node', 'bin', 'node');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const configFile = (workspace: string) => join(workspace, '.vscode', 'mcp.json');

describe('MCP servers in the browser', () => {
  const rig = useChatRig({
    openChat: false,
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, '.vscode'), { recursive: true });
      writeFileSync(configFile(workspace), JSON.stringify({ servers: { everything: { type: 'stdio', command: node, args: [everything, 'stdio'] } } }, null, 2));
    },
    cleanup: ({ workspace }) => rmSync(configFile(workspace), { force: true }),
  });

  it('asks in a dialog, lists the server, runs its prompt and its tool', async function () {
    this.timeout(180_000);
    await rig.chat.open();

    const dialog = rig.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    const asked = await dialog.innerText();
    assert.match(asked, /Start the MCP server "everything" from this workspace's .vscode\/mcp.json\?/);
    assert.match(asked, /command: .*server-everything.*stdio/);
    await dialog.getByRole('button', { name: 'Allow' }).click();

    const status = rig.chat.frame.getByTestId('mcp-status');
    await status.locator('summary', { hasText: 'MCP 1/1 ready' }).waitFor({ timeout: 60_000 });
    await status.locator('summary').click();
    assert.match(await status.getByTestId('mcp-server').innerText(), /everything ready, \d+ tools, \d+ prompts/);

    // The prompt, filled by the server, is sent as the person's message.
    rig.server.load({ turns: [reply.text('Sunny.', { match: { lastUserIncludes: "What's weather in Lisbon?" } })] });
    const input = rig.chat.composer();
    await input.click();
    await input.fill('/mcp.everything.args-prompt city=Lisbon');
    await input.press('Enter');
    await rig.chat.byRole('user').filter({ hasText: "What's weather in Lisbon?" }).waitFor({ timeout: 30_000 });
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Sunny.');

    // Its read-only tool runs without an approval card, and the result reaches the model.
    rig.server.load({
      turns: [
        reply.tool('mcp__everything__echo', { message: 'from the browser' }),
        reply.text('Echoed it.', { match: { lastToolResultIncludes: 'Echo: from the browser' } }),
      ],
    });
    await rig.chat.send('echo it');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Echoed it.');
    assert.match(await rig.chat.toolOutput(), /Echo: from the browser/);
  });
});
