/// <reference types="mocha" />
// Tool approvals between the real host side and the UI's side of the bus: the host asks,
// the person answers, and what happens to the workspace (through VS Code) follows the answer.
import * as assert from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { ChatPage } from './support/chatPage';
import { MODEL, activateKeel, keelHomeForRun, setApprovalMode, setModelSettings, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';

keelHomeForRun();

async function documentText(path: string): Promise<string> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  return document.getText();
}

describe('tool approvals', () => {
  let server: ScriptedServer;
  let page: ChatPage;
  let folder: string;

  before(async () => {
    const api = await activateKeel();
    folder = workspaceFolder();
    server = await startScriptedServer();
    await setApprovalMode(undefined); // the default: manual, every change and command asks
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  beforeEach(async () => {
    await page.newChat();
  });

  after(async () => {
    page?.close();
    await setModelSettings(undefined);
    await server?.close();
  });

  it('asks the UI before writing, and Approve writes the file through VS Code', async () => {
    const target = join(folder, 'notes', 'approved.md');
    rmSync(target, { force: true });
    const content = '# Approved\n\nWritten after the person said yes.\n';
    server.load({
      turns: [
        reply.tool('write', { file_path: 'notes/approved.md', content }),
        reply.text('The note is written.', { match: { lastToolResultIncludes: 'Created notes/approved.md' } }),
      ],
    });
    const from = page.events.length;
    await page.send('write the note');

    const asked = await page.nextApproval();
    assert.strictEqual(asked.request.tool, 'write');
    assert.strictEqual(asked.request.category, 'write');
    assert.strictEqual(asked.request.protected, false);
    assert.strictEqual(asked.request.change?.kind, 'create');
    assert.strictEqual(asked.request.change?.displayPath, 'notes/approved.md');
    assert.strictEqual(existsSync(target), false, 'nothing is written before the answer');
    const call = page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId);
    assert.strictEqual(call?.state, 'awaitingApproval', 'the tool card waits for the answer');

    asked.answer({ approved: true, scope: 'once' });
    await page.runEnded(from);

    assert.strictEqual(await documentText(target), content, 'VS Code sees the new file with the proposed text');
    assert.strictEqual(readFileSync(target, 'utf8'), content, 'and it is saved to disk');
    assert.strictEqual(page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId)?.state, 'done');
    assert.strictEqual(page.text(page.last('assistant')), 'The note is written.');
    assert.strictEqual(server.pendingTurns(), 0);
  });

  it('Reject leaves the file as it was and tells the model why', async () => {
    const target = join(folder, 'src', 'greet.ts');
    const original = readFileSync(target, 'utf8');
    server.load({
      turns: [
        reply.tool('read', { file_path: 'src/greet.ts' }),
        reply.tool('write', { file_path: 'src/greet.ts', content: 'export const broken = true;\n' }),
        reply.text('Understood, I left it alone.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    const from = page.events.length;
    await page.send('rewrite greet.ts');

    const asked = await page.nextApproval();
    assert.strictEqual(asked.request.tool, 'write');
    assert.strictEqual(asked.request.change?.kind, 'edit');
    asked.answer({ approved: false, reason: 'keep the greeting as it is' });
    await page.runEnded(from);

    assert.strictEqual(await documentText(target), original, 'the document is unchanged');
    assert.strictEqual(readFileSync(target, 'utf8'), original, 'the file on disk is unchanged');
    assert.strictEqual(page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId)?.state, 'rejected');
    const told = lastToolResult(request(server, 2));
    assert.match(told, /declined/);
    assert.match(told, /keep the greeting as it is/);
    assert.strictEqual(page.text(page.last('assistant')), 'Understood, I left it alone.');
  });

  it('"Always allow" stops asking for that command prefix for the rest of the conversation', async () => {
    server.load({
      turns: [
        reply.tool('bash', { command: 'pwd' }),
        reply.tool('bash', { command: 'pwd -P' }, { match: { lastToolResultIncludes: 'workspace' } }),
        reply.text('both ran', { match: { lastToolResultIncludes: 'workspace' } }),
        reply.tool('bash', { command: 'pwd' }),
        reply.text('not run', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    const from = page.events.length;
    await page.send('where am I, twice');
    const first = await page.nextApproval();
    assert.strictEqual(first.request.tool, 'bash');
    assert.strictEqual(first.request.category, 'command');
    assert.strictEqual(first.request.summary, 'pwd');
    assert.deepStrictEqual(first.request.allowPrefixes, ['pwd'], 'the card can name what "always allow" adds');
    first.answer({ approved: true, scope: 'session' });
    // Commands run in Keel's terminal: the first one waits for the terminal's shell to start.
    await page.runEnded(from, 60_000);

    assert.strictEqual(page.approvals.at(-1), first, '"pwd -P" was not asked about');
    const outputs = page.toolCalls().map((c) => c.result?.output ?? '');
    assert.strictEqual(outputs.filter((o) => o.includes(folder)).length, 2, `both commands ran in ${folder}: ${JSON.stringify(outputs)}`);
    assert.strictEqual(page.text(page.last('assistant')), 'both ran');

    // The allowance belongs to that conversation: a new chat asks again.
    await page.newChat();
    const next = page.events.length;
    await page.send('one more');
    const again = await page.nextApproval();
    assert.strictEqual(again.request.summary, 'pwd');
    again.answer({ approved: false });
    await page.runEnded(next);
    assert.strictEqual(server.pendingTurns(), 0);
  });

  it('a page reloaded while an approval waits gets the approval again and can answer it', async () => {
    server.load({
      turns: [
        reply.tool('bash', { command: 'echo after-reload' }),
        reply.text('ran after the reload', { match: { lastToolResultIncludes: 'after-reload' } }),
      ],
    });
    await page.send('run it');
    const firstAsk = await page.nextApproval();
    const reloaded = await page.reload();
    page = reloaded;
    assert.deepStrictEqual(
      reloaded.snapshots.at(-1)?.pendingApprovals.map((a) => a.id),
      [firstAsk.request.id],
      'the snapshot lists the open approval',
    );
    const asked = await reloaded.nextApproval();
    assert.strictEqual(asked.request.id, firstAsk.request.id, 'the same approval, asked again');
    asked.answer({ approved: true, scope: 'once' });
    await reloaded.waitFor(() => reloaded.text(reloaded.last('assistant')) === 'ran after the reload', 'the reply after the approval', 60_000);
    assert.ok(reloaded.toolCalls().some((c) => c.result?.output.includes('after-reload')), 'the command ran');
  });
});
