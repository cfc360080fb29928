/// <reference types="mocha" />
// What a command changed, as a person meets it in code-server: the bash card lists the files
// it added, modified and deleted with +/− counts, a file opens its diff, and Undo on the card
// puts the exact bytes back on disk.
import * as assert from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

const TIMEOUT = 60_000;
const CRLF_BOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nbeta\r\ngamma\r\n')]);

describe('undoing what a command changed, in code-server', () => {
  const { workspace } = e2eEnv();
  const folder = join(workspace, 'undo-e2e');
  let server: ScriptedServer;
  let chat: ChatView;

  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, { baseURL: server.baseURL });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), CRLF_BOM);
    writeFileSync(join(folder, 'old.txt'), 'to be removed\n');
  });

  const wb = useWorkbench();

  before(async function () {
    this.timeout(90_000);
    chat = new ChatView(wb.page);
    await chat.open();
  });

  after(async () => {
    await server?.close();
    removeStoredConversations(workspace);
    rmSync(folder, { recursive: true, force: true });
  });

  it('lists the files on the bash card, opens a diff, and Undo restores the bytes on disk', async function () {
    this.timeout(240_000);
    server.load({
      turns: [
        reply.tool('bash', { command: "cd undo-e2e && sed -i 's/beta/BETA/' notes.txt && rm old.txt && printf 'one\\ntwo\\n' > made.txt && echo edited-files" }),
        reply.text('Changed them.', { match: { lastToolResultIncludes: 'edited-files' } }),
      ],
    });
    await chat.send('change the notes');
    const approval = chat.approvalCard();
    await approval.waitFor({ timeout: TIMEOUT });
    await approval.getByTestId('approve').click();
    assert.strictEqual(await chat.finishedAnswer(), 'Changed them.');

    const card = chat.frame.getByTestId('tool-card').filter({ has: chat.frame.getByTestId('command-files') }).last();
    await card.waitFor({ timeout: TIMEOUT });
    const rows = card.getByTestId('command-file');
    const listed = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).sort();
    assert.deepStrictEqual(listed, ['Added undo-e2e/made.txt +2 −0', 'Deleted undo-e2e/old.txt +0 −1', 'Modified undo-e2e/notes.txt +1 −1']);
    assert.notDeepStrictEqual(readFileSync(join(folder, 'notes.txt')), CRLF_BOM);

    // A file opens what the command did to it in a diff editor.
    await rows.filter({ hasText: 'notes.txt' }).locator('.command-file-open').click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'notes.txt (what the command changed)' }).waitFor({ timeout: TIMEOUT });
    await wb.page.locator('.monaco-diff-editor .modified', { hasText: 'BETA' }).first().waitFor({ timeout: TIMEOUT });

    await card.getByTestId('undo-command').click();
    await card.getByTestId('command-undone').waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(readFileSync(join(folder, 'notes.txt')), CRLF_BOM);
    assert.strictEqual(readFileSync(join(folder, 'old.txt'), 'utf8'), 'to be removed\n');
    assert.strictEqual(existsSync(join(folder, 'made.txt')), false);
  });
});
