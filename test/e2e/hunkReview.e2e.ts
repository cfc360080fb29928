/// <reference types="mocha" />
// Reviewing a proposal hunk by hunk in code-server with VS Code's default settings: the
// Accept/Reject controls are drawn above each hunk of the diff, a click on them decides
// that hunk, and the file on disk gets exactly the accepted hunks. A new file opens as
// itself (no diff against an empty side) and its controls are drawn there too.
import * as assert from 'node:assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { untilFile } from './support/diskFiles.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;
const TEN = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].map((l) => `${l}\n`).join('');

describe('hunk by hunk review in code-server, default settings', () => {
  const rig = useChatRig({ newChatEachTest: true, scratchDir: 'hunk-e2e' });

  /** A CodeLens drawn in the editor area, by its text (a link when it has a command, plain text otherwise). */
  function lens(scope: Locator, text: string): Locator {
    return scope.locator('.codelens-decoration a, .codelens-decoration span', { hasText: text }).first();
  }

  it('draws Accept/Reject above each hunk; one accepted and one rejected hunk write exactly the accepted one', async () => {
    const path = join(rig.scratch, 'hunks.txt');
    writeFileSync(path, TEN);
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: 'hunk-e2e/hunks.txt' }),
        reply.tool('write', { file_path: 'hunk-e2e/hunks.txt', content: TEN.replace('two', 'TWO').replace('nine', 'NINE') }),
        reply.text('Half of it went in.', { match: { lastToolResultIncludes: 'hunks.txt' } }),
      ],
    });
    await rig.chat.send('shout two and nine');

    const diff = rig.page.locator('.monaco-diff-editor').first();
    await diff.locator('.modified', { hasText: 'NINE' }).first().waitFor({ timeout: TIMEOUT });
    // The breadcrumb reads like the file, not like Keel's review id.
    const crumbs = (await rig.page.locator('.breadcrumbs-control').first().innerText()).replace(/\s+/g, ' ');
    assert.match(crumbs, /hunk-e2e.*hunks\.txt/);
    assert.doesNotMatch(crumbs, /ap-/);

    await lens(diff, 'Accept hunk 1').click();
    await lens(diff, 'Hunk 1 accepted').waitFor({ timeout: TIMEOUT });
    assert.strictEqual(readFileSync(path, 'utf8'), TEN, 'nothing is written while a hunk is undecided');
    await lens(diff, 'Reject hunk 2').click();

    await untilFile(path, TEN.replace('two', 'TWO'));
    await rig.chat.byRole('assistant').filter({ hasText: 'Half of it went in.' }).waitFor({ timeout: TIMEOUT });
  });

  it('opens a new file as itself, without a removed empty line, and Accept above it creates the file', async () => {
    const path = join(rig.scratch, 'fresh.txt');
    rmSync(path, { force: true });
    rig.server.load({
      turns: [
        reply.tool('write', { file_path: 'hunk-e2e/fresh.txt', content: 'fresh line\n' }),
        reply.text('Created.', { match: { lastToolResultIncludes: 'fresh.txt' } }),
      ],
    });
    await rig.chat.send('create a fresh file');

    const editor = rig.page.locator('.editor-instance .monaco-editor', { hasText: 'fresh line' }).first();
    await editor.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.page.locator('.monaco-diff-editor').count(), 0, 'no diff editor for a new file');
    assert.strictEqual(await rig.page.locator('.editor-instance .line-delete, .editor-instance .char-delete').count(), 0, 'no line is shown as removed');
    await lens(editor, 'Accept change').click();
    await untilFile(path, 'fresh line\n');
    await rig.chat.byRole('assistant').filter({ hasText: 'Created.' }).waitFor({ timeout: TIMEOUT });
  });
});
