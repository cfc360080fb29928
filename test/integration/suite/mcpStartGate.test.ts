/// <reference types="mocha" />
// Issue #11's trust proof for MCP in a trusted workspace: a stdio server from .vscode/mcp.json
// does not run before the person approves it. The fixture server leaves a start marker the moment
// its process starts, so "not started" is seen on disk, not inferred from the dialog.
import * as assert from 'node:assert';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerConfig } from '../../../src/core/mcp/mcpConfig';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { useConfiguredChat } from './support/chatFixture';
import { activateKeel, keelHomeForRun, workspaceFolder } from './support/keelSetup';

keelHomeForRun();

describe('a workspace MCP server before approval', () => {
  const chat = useConfiguredChat();
  const asked: { server: string; markerThen: boolean }[] = [];
  let answer = false;
  let configFile: string;
  let marker: string;

  before(async () => {
    const api = await activateKeel();
    marker = join(workspaceFolder(), 'gate-server-started.txt');
    await api.testHooks.setMcpApprovalPrompt(async (server: McpServerConfig) => {
      asked.push({ server: server.name, markerThen: existsSync(marker) });
      return answer;
    });
    mkdirSync(join(workspaceFolder(), '.vscode'), { recursive: true });
    configFile = join(workspaceFolder(), '.vscode', 'mcp.json');
  });
  after(() => {
    rmSync(configFile, { force: true });
    rmSync(marker, { force: true });
  });

  const state = () => (chat.page.named('mcp.status').at(-1) as McpStatusView | undefined)?.servers.find((s) => s.name === 'gate');
  const writeConfig = (extra: string) => {
    // Writes the marker, then stays up reading stdin like a server, until Keel stops it.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started ${extra}'); process.stdin.resume();`;
    writeFileSync(configFile, JSON.stringify({ servers: { gate: { type: 'stdio', command: process.execPath, args: ['-e', script] } } }));
  };

  it('is not started while the person is asked, nor after a refusal; it starts once allowed', async function () {
    this.timeout(180_000);
    rmSync(marker, { force: true });
    answer = false;
    writeConfig('1');
    await chat.page.waitFor(() => asked.length >= 1, 'the question about the workspace server', 60_000);
    await chat.page.waitFor(() => state()?.state === 'disabled' && /not approved/.test(state()!.text), 'the refused server to be off', 60_000);
    assert.deepStrictEqual(asked[0], { server: 'gate', markerThen: false }, 'nothing ran before the question');
    assert.strictEqual(existsSync(marker), false, 'nothing ran after the refusal');

    // The same mechanism sees a start: allowed, the process runs and leaves its marker.
    answer = true;
    writeConfig('2');
    await chat.page.waitFor(() => asked.length >= 2, 'the question about the changed server', 60_000);
    assert.strictEqual(asked[1]!.markerThen, false, 'not started before the second answer either');
    await chat.page.waitFor(() => existsSync(marker), 'the allowed server to start and leave its marker', 60_000);
  });
});
