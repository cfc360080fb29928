/// <reference types="mocha" />
// Restricted Mode (run with `runIntegration.mjs --trust`): a server in the workspace's
// .vscode/mcp.json is neither started nor asked about, and the agent gets no MCP tools.
import * as assert from 'node:assert';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from '../suite/support/chatFixture';
import { activateKeel, keelHomeForRun, workspaceFolder } from '../suite/support/keelSetup';
import { request } from '../suite/support/modelRequests';

keelHomeForRun();

describe('MCP in an untrusted workspace', () => {
  before(() => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'this suite needs Restricted Mode: run it with scripts/runIntegration.mjs --trust');
  });
  const chat = useConfiguredChat();
  let asked = 0;
  let marker: string;
  let configFile: string;

  before(async () => {
    const api = await activateKeel();
    await api.testHooks.setMcpApprovalPrompt(async () => {
      asked++;
      return true;
    });
    mkdirSync(join(workspaceFolder(), '.vscode'), { recursive: true });
    configFile = join(workspaceFolder(), '.vscode', 'mcp.json');
    marker = join(workspaceFolder(), 'mcp-started.txt');
  });
  after(() => rmSync(configFile, { force: true }));

  it('does not start or ask about a workspace server, and offers no MCP tools', async function () {
    this.timeout(120_000);
    // The server would leave a file behind if it ever ran.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
    writeFileSync(configFile, JSON.stringify({ servers: { sneaky: { type: 'stdio', command: process.execPath, args: ['-e', script] } } }));
    const state = () => (chat.page.named('mcp.status').at(-1) as McpStatusView | undefined)?.servers.find((s) => s.name === 'sneaky');
    await chat.page.waitFor(() => state() !== undefined, 'the server in the status list', 60_000);
    assert.strictEqual(state()!.state, 'disabled');
    assert.match(state()!.text, /not trusted/);

    chat.server.load({ turns: [reply.text('no MCP here')] });
    await chat.page.sendAndSettle('which tools do you have?');
    const tools = (request(chat.server, 0).body.tools ?? []) as { function: { name: string } }[];
    assert.ok(!tools.some((t) => t.function.name.startsWith('mcp__')), 'no MCP tools are offered');
    assert.strictEqual(asked, 0, 'the person was not asked to approve it');
    assert.strictEqual(existsSync(marker), false, 'the server process never ran');
  });
});
