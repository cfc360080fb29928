/// <reference types="mocha" />
// An MCP server in a real extension host sees the workspace folder as its root, and a long call's
// progress shows on its tool card while it runs. The server is @modelcontextprotocol/server-everything
// (its get-roots-list and trigger-long-running-operation tools), from .vscode/mcp.json over stdio.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { EXTENSION_ID, activateKeel, keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';

keelHomeForRun();

describe('an MCP server in VS Code: roots and progress', () => {
  const chat = useConfiguredChat();
  let configFile: string;

  before(async function () {
    this.timeout(120_000);
    const api = await activateKeel();
    await api.testHooks.setMcpApprovalPrompt(async () => true);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const entry = join(extension.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    mkdirSync(join(workspaceFolder(), '.vscode'), { recursive: true });
    configFile = join(workspaceFolder(), '.vscode', 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [entry, 'stdio'] } } }));
    const ready = () => (chat.page.named('mcp.status').at(-1) as McpStatusView | undefined)?.servers.find((s) => s.name === 'everything')?.state === 'ready';
    await chat.page.waitFor(ready, 'the server to be ready in the view', 60_000);
  });
  after(() => rmSync(configFile, { force: true }));

  it('lists the workspace folder as its root', async function () {
    this.timeout(120_000);
    chat.server.load({ turns: [reply.tool('mcp__everything__get-roots-list', {}), reply.text('listed')] });
    await chat.page.sendAndSettle('which roots do you see?');
    const result = lastToolResult(request(chat.server, 1));
    assert.match(result, /Current MCP Roots \(1 total\)/);
    assert.ok(result.includes(pathToFileURL(workspaceFolder()).href), result);
  });

  it("shows a long call's progress on its card while it runs", async function () {
    this.timeout(120_000);
    chat.server.load({ turns: [reply.tool('mcp__everything__trigger-long-running-operation', { duration: 4, steps: 4 }), reply.text('finished')] });
    const from = chat.page.events.length;
    await chat.page.send('run the long operation');
    await chat.page.waitFor(
      () => chat.page.toolCalls().some((c) => c.name === 'mcp__everything__trigger-long-running-operation' && c.state === 'running' && (c.progress?.percent ?? 0) > 0),
      'progress on the running card',
      60_000,
    );
    await chat.page.runEnded(from, 60_000);
    const card = chat.page.toolCalls().find((c) => c.name === 'mcp__everything__trigger-long-running-operation');
    assert.ok(card && card.state !== 'running', 'the call ended');
    assert.match(lastToolResult(request(chat.server, 1)), /Long running operation completed/);
  });
});
