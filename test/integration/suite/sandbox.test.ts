/// <reference types="mocha" />
// The OS sandbox on the terminal path: a command Keel types into its terminal runs inside
// bubblewrap (the real one), cannot write a protected path, and the card says the sandbox
// refused it; ordinary workspace writes still work.
import * as assert from 'node:assert';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, setApprovalMode, setSandbox, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';

keelHomeForRun();

describe('commands in the OS sandbox', function () {
  this.timeout(180_000);
  const chat = useConfiguredChat();
  let folder: string;
  const made: string[] = [];

  before(async () => {
    folder = workspaceFolder();
    await setSandbox('on');
    await setApprovalMode('yolo');
    await chat.page.waitFor(() => chat.page.run?.approvalMode === 'yolo', 'approval mode yolo in the chat');
  });
  after(async () => {
    for (const path of made) rmSync(path, { force: true });
    await setApprovalMode(undefined);
    await setSandbox(undefined);
  });

  function explain(err: unknown): never {
    const calls = chat.page.toolCalls().map((c) => `${c.name}:${c.state}:${c.result?.output ?? ''}`);
    throw new Error(`${String(err)}; tool calls ${calls.join(' | ')}; errors ${JSON.stringify(chat.page.errors)}`);
  }

  it("a command in Keel's terminal cannot write .vscode, and the card says the sandbox refused it", async () => {
    const probe = join(folder, '.vscode', 'keel-sandbox-probe');
    made.push(probe);
    chat.server.load({
      turns: [
        // Through a variable, so the static checks cannot see the path and only the sandbox stops it.
        reply.tool('bash', { command: 'mkdir -p .vscode && p=.vscode/keel-sandbox-probe && touch "$p"' }),
        reply.text('refused', { match: { lastToolResultIncludes: 'sandbox' } }),
      ],
    });
    await chat.page.sendAndSettle('try it', 60_000).catch(explain);
    const told = lastToolResult(request(chat.server, 1));
    assert.match(told, /^Ran in the terminal "Keel( \d+)?"\./, told);
    assert.match(told, /Read-only file system/, told);
    assert.match(told, /This command ran in Keel's OS sandbox, and it probably failed because of it/, told);
    const card = chat.page.toolCalls().at(-1)?.result?.output ?? '';
    assert.match(card, /ran in Keel's OS sandbox, and it probably failed because of it/, 'the card says the sandbox refused it');
    assert.ok(!existsSync(probe), '.vscode/keel-sandbox-probe was not created');
  });

  it('an ordinary file in the workspace is written from the terminal in the sandbox', async () => {
    const file = join(folder, 'sandbox-ok.txt');
    made.push(file);
    chat.server.load({
      turns: [reply.tool('bash', { command: 'echo fine > sandbox-ok.txt' }), reply.text('done', { match: { lastToolResultIncludes: 'Exit code: 0' } })],
    });
    await chat.page.sendAndSettle('write it', 60_000).catch(explain);
    assert.match(lastToolResult(request(chat.server, 1)), /^Ran in the terminal/);
    assert.ok(existsSync(file), 'sandbox-ok.txt exists');
  });
});
