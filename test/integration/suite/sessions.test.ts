/// <reference types="mocha" />
// Sessions in a real extension host: listed per workspace, exported to Markdown in an editor,
// forked with Edit and resend (the model gets the branch's history), and shared with the CLI
// (a conversation `keel run` started in this folder is resumed in the view, and back).
import * as assert from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { SessionStore } from '../../../src/core/session/sessionStore';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { EXTENSION_ID, MODEL, keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { assistantTexts, request, userTexts } from './support/modelRequests';

const run = promisify(execFile);
const home = keelHomeForRun();

function currentSessionId(chat: ReturnType<typeof useConfiguredChat>): string {
  const id = (chat.page.named('session').at(-1) as { id: string | null } | undefined)?.id;
  assert.ok(id, 'the conversation has an id once its first message was saved');
  return id;
}

/** `node dist/cli.js …` of this extension build, with the run's KEEL_HOME. */
async function cli(args: string[]): Promise<string> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const { stdout } = await run(process.execPath, [join(extension.extensionPath, 'dist', 'cli.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', KEEL_HOME: home },
    timeout: 60_000,
  });
  return stdout;
}

describe('sessions', () => {
  const chat = useConfiguredChat();
  let otherRoot: string;

  before(() => {
    otherRoot = mkdtempSync(join(tmpdir(), 'keel-other-ws-'));
  });
  after(() => rmSync(otherRoot, { recursive: true, force: true }));

  it('lists only this workspace’s conversations, though another workspace keeps its own under the same KEEL_HOME', async () => {
    const other = new SessionStore({ home, workspace: { root: otherRoot } });
    const foreign = other.create();
    foreign.appendMessage({ role: 'user', content: 'a conversation of another folder' });
    foreign.close();

    chat.server.load({ turns: [reply.text('answer in this folder')] });
    await chat.page.sendAndSettle('a conversation of this folder');
    const mine = currentSessionId(chat);

    const listed = await chat.page.bus.request('sessions.list', {});
    const ids = listed.sessions.map((s) => s.id);
    assert.ok(ids.includes(mine), 'this workspace’s conversation is listed');
    assert.ok(!ids.includes(foreign.id), 'the other folder’s conversation is not');
    const searched = await chat.page.bus.request('sessions.list', { query: 'another folder' });
    assert.deepStrictEqual(searched.sessions, [], 'searching does not reach into the other folder either');
    assert.deepStrictEqual(
      other.list().map((s) => s.id),
      [foreign.id],
      'and the other folder sees only its own',
    );
    await assert.rejects(chat.page.bus.request('sessions.resume', { id: foreign.id }), /No session/);
  });

  it('exports a conversation to Markdown in a new editor: prompts, answers and tool calls', async () => {
    chat.server.load({
      turns: [reply.tool('read', { file_path: 'package.json' }), reply.text('The package is named in package.json.')],
    });
    await chat.page.sendAndSettle('what is this package called?');
    const id = currentSessionId(chat);
    const before = vscode.window.activeTextEditor?.document;
    const result = await chat.page.bus.request('sessions.export', { id, format: 'markdown' });
    assert.deepStrictEqual(result, { exported: true });
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document !== before, 'the export opened in an editor');
    const doc = editor.document;
    try {
      assert.strictEqual(doc.languageId, 'markdown');
      assert.strictEqual(doc.isUntitled, true, 'nothing is written until the person saves it');
      const text = doc.getText();
      assert.match(text, /^# what is this package called\?\n/);
      assert.match(text, /## You · .*\n\nwhat is this package called\?/);
      assert.match(text, /\*\*Tool `read`\*\* `package\.json`/);
      assert.match(text, /Result:\n\n```\n[\s\S]*"name"/, 'the tool result is in the transcript');
      assert.match(text, /## Keel \(.*\) · .*\n\nThe package is named in package\.json\./);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('Edit and resend forks the conversation: the model gets the edited branch, not the abandoned one', async () => {
    chat.server.load({ turns: [reply.text('answer one'), reply.text('about blue'), reply.text('about green')] });
    await chat.page.sendAndSettle('first question');
    const { messageId } = await chat.page.sendAndSettle('tell me about blue');
    const before = chat.server.requests.length;

    const from = chat.page.events.length;
    await chat.page.bus.request('session.editAndResend', { messageId, text: 'tell me about green' });
    await chat.page.runEnded(from);
    const sent = request(chat.server, before);
    assert.deepStrictEqual(userTexts(sent), ['first question', 'tell me about green']);
    assert.deepStrictEqual(assistantTexts(sent), ['answer one']);
    const edited = chat.page.messages.find((m) => m.role === 'user' && chat.page.text(m) === 'tell me about green');
    assert.deepStrictEqual(edited?.branch, { index: 2, count: 2 }, 'the view shows the active branch');
    assert.ok(!chat.page.messages.some((m) => chat.page.text(m) === 'about blue'), 'the abandoned reply is not in view');

    // The old branch is still there.
    await chat.page.bus.request('session.switchBranch', { messageId: edited.id, index: 1 });
    await chat.page.waitFor(() => chat.page.messages.some((m) => chat.page.text(m) === 'about blue'), 'the first branch back in view');
  });

  it('resumes in the view a conversation `keel run` started in this folder, and the CLI resumes the view’s', async () => {
    chat.server.load({ turns: [reply.text('hello from the CLI run'), reply.text('continued in VS Code'), reply.text('back on the CLI')] });
    const out = await cli(['run', '--cwd', workspaceFolder(), '--base-url', chat.server.baseURL, '--model', MODEL, 'started on the command line']);
    assert.match(out, /hello from the CLI run/);

    const listed = await chat.page.bus.request('sessions.list', {});
    const row = listed.sessions[0];
    assert.ok(row, 'the CLI conversation is listed');
    assert.strictEqual(row.title, 'started on the command line');
    const from = chat.page.snapshots.length;
    await chat.page.bus.request('sessions.resume', { id: row.id });
    await chat.page.waitFor(() => chat.page.snapshots.length > from, 'the resumed conversation');
    assert.deepStrictEqual(
      chat.page.messages.map((m) => [m.role, chat.page.text(m)]),
      [
        ['user', 'started on the command line'],
        ['assistant', 'hello from the CLI run'],
      ],
    );
    const before = chat.server.requests.length;
    await chat.page.sendAndSettle('and now from the editor');
    assert.deepStrictEqual(userTexts(request(chat.server, before)), ['started on the command line', 'and now from the editor']);

    // The view lets go of it (a new chat), and the CLI carries on with the whole history.
    await chat.page.newChat();
    await cli(['run', '--cwd', workspaceFolder(), '--base-url', chat.server.baseURL, '--model', MODEL, '--session', row.id, 'one more from the CLI']);
    const last = request(chat.server, before + 1);
    assert.deepStrictEqual(userTexts(last), ['started on the command line', 'and now from the editor', 'one more from the CLI']);
    assert.deepStrictEqual(assistantTexts(last), ['hello from the CLI run', 'continued in VS Code']);
  });
});
