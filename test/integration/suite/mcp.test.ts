/// <reference types="mocha" />
// MCP servers from the workspace's .vscode/mcp.json in a real extension host: asked about once,
// then their tools are used by the agent; asked again when what the server runs changes.
// The server is @modelcontextprotocol/server-everything from the npm registry, over stdio.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpServerConfig } from '../../../src/core/mcp/mcpConfig';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { EXTENSION_ID, activateKeel, keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';

keelHomeForRun();

interface Asked {
  server: McpServerConfig;
  details: string[];
  changed: boolean;
}

describe('MCP servers from .vscode/mcp.json', () => {
  const chat = useConfiguredChat();
  const asked: Asked[] = [];
  let answer = true;
  let configFile: string;
  let entry: string;

  before(async () => {
    const api = await activateKeel();
    await api.testHooks.setMcpApprovalPrompt(async (server, details, changed) => {
      asked.push({ server, details, changed });
      return answer;
    });
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    entry = join(extension.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    mkdirSync(join(workspaceFolder(), '.vscode'), { recursive: true });
    configFile = join(workspaceFolder(), '.vscode', 'mcp.json');
  });
  after(() => rmSync(configFile, { force: true }));

  const writeConfig = (server: object) => writeFileSync(configFile, `// the team's servers\n${JSON.stringify({ servers: { everything: server } }, null, 2)}\n`);
  const latestStatus = (): McpStatusView | undefined => chat.page.named('mcp.status').at(-1) as McpStatusView | undefined;
  const serverState = () => latestStatus()?.servers.find((s) => s.name === 'everything');

  it('asks once before starting a workspace server, then the agent uses its tool', async function () {
    this.timeout(180_000);
    writeConfig({ type: 'stdio', command: process.execPath, args: [entry, 'stdio'] });
    await chat.page.waitFor(() => serverState()?.state === 'ready', 'the server to be ready in the view', 60_000);
    assert.strictEqual(asked.length, 1, 'the person was asked once');
    assert.strictEqual(asked[0]!.server.name, 'everything');
    assert.strictEqual(asked[0]!.changed, false);
    assert.ok(asked[0]!.details.some((line) => line.startsWith('command: ') && line.includes('server-everything')), asked[0]!.details.join('\n'));
    assert.match(serverState()!.text, /^ready, \d+ tools/);
    assert.ok(latestStatus()!.prompts.some((p) => p.command === 'mcp.everything.simple-prompt'), 'its prompts are offered as slash commands');

    chat.server.load({ turns: [reply.tool('mcp__everything__echo', { message: 'hello from VS Code' }), reply.text('echoed')] });
    await chat.page.sendAndSettle('echo through MCP');
    assert.match(lastToolResult(request(chat.server, 1)), /Echo: hello from VS Code/);

    // Saving the same server again (only the formatting changed) does not ask again.
    writeFileSync(configFile, JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [entry, 'stdio'] } } }));
    chat.server.load({ turns: [reply.tool('mcp__everything__get-sum', { a: 1, b: 2 }), reply.text('summed')] });
    await chat.page.sendAndSettle('add through MCP');
    assert.match(lastToolResult(request(chat.server, 1)), /The sum of 1 and 2 is 3/);
    assert.strictEqual(asked.length, 1, 'still asked only once');
  });

  it('asks again when its command changes, and a refusal keeps it off', async function () {
    this.timeout(180_000);
    const before = asked.length;
    answer = false;
    writeConfig({ type: 'stdio', command: process.execPath, args: [entry, 'stdio'], env: { EXTRA: '1' } });
    await chat.page.waitFor(() => asked.length > before, 'the question about the changed server', 60_000);
    assert.strictEqual(asked.at(-1)!.changed, true, 'the person is told it changed');
    assert.ok(asked.at(-1)!.details.includes('env: EXTRA'));
    await chat.page.waitFor(() => serverState()?.state === 'disabled' && /not approved/.test(serverState()!.text), 'the refused server to be off', 60_000);

    chat.server.load({ turns: [reply.text('no MCP tools now', { match: { lastUserIncludes: 'anything from MCP?' } })] });
    await chat.page.sendAndSettle('anything from MCP?');
    const tools = (request(chat.server, 0).body.tools ?? []) as { function: { name: string } }[];
    assert.ok(!tools.some((t) => t.function.name.startsWith('mcp__everything__')), 'a refused server offers no tools');
    answer = true;
  });
});
