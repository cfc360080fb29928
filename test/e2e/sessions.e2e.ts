/// <reference types="mocha" />
// Past conversations in code-server, as a person uses them: the sessions panel lists only
// this folder's, a conversation is found again after a window reload, "Keel: Open Session…"
// searches message text, and "Edit and resend" starts a branch the view can switch between.
import * as assert from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keelHome } from '../../src/core/paths';
import { SessionStore } from '../../src/core/session/sessionStore';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { reloadWindow } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';
import { isKeelNote } from '../../src/core/session/keelNotes';

const TIMEOUT = 30_000;

/** What a message said, without the workspace context and rule reminders Keel attached for the model. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: string; text?: string }) => (p.type === 'text' && !isKeelNote(p.text ?? '') ? (p.text ?? '') : '')).join('');
}

function userTexts(server: ScriptedServer, index: number): string[] {
  const messages = server.requests[index]?.body.messages ?? [];
  return messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
}

describe('Keel sessions in code-server', () => {
  let otherRoot: string;
  const rig = useChatRig({
    // A conversation of another folder under the same KEEL_HOME: it must never show here.
    prepare: () => {
      otherRoot = mkdtempSync(join(tmpdir(), 'keel-e2e-other-'));
      const other = new SessionStore({ home: keelHome(process.env), workspace: { root: otherRoot } });
      const foreign = other.create();
      foreign.appendMessage({ role: 'user', content: 'foreign folder conversation' });
      foreign.close();
    },
    cleanup: () => {
      const other = new SessionStore({ home: keelHome(process.env), workspace: { root: otherRoot } });
      rmSync(join(other.dir, '..'), { recursive: true, force: true });
      rmSync(otherRoot, { recursive: true, force: true });
    },
  });

  async function showSessions(): Promise<void> {
    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.frame.getByTestId('sessions-list').waitFor({ timeout: TIMEOUT });
  }

  it('lists only this folder’s conversations and resumes one after a window reload', async () => {
    rig.server.load({ turns: [reply.text('Blue is calm.'), reply.text('Green is fresh.')] });
    await rig.chat.send('tell me about the colour blue');
    await rig.chat.finishedAnswer();
    await rig.chat.newChat();
    await rig.chat.send('tell me about the colour green');
    await rig.chat.finishedAnswer();

    await reloadWindow(rig.page);
    await rig.chat.open();
    await showSessions();
    const rows = rig.chat.frame.getByTestId('session-item');
    await rows.nth(1).waitFor({ timeout: TIMEOUT });
    const titles = (await rig.chat.frame.locator('[data-testid="session-item"] .session-title').allInnerTexts()).map((t) => t.trim());
    assert.deepStrictEqual(titles, ['tell me about the colour green', 'tell me about the colour blue'], 'newest first, this folder only');
    assert.match(await rows.first().locator('.session-meta').innerText(), /2 messages · \d[\d,.]* tokens/);

    await rows.nth(1).click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Blue is calm.' }).waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(await rig.chat.transcript(), [
      ['user', 'tell me about the colour blue'],
      ['assistant', 'Blue is calm.'],
    ]);
  });

  it('finds a conversation by the text of a reply in the panel search', async () => {
    await showSessions();
    await rig.chat.frame.getByTestId('session-item').nth(1).waitFor({ timeout: TIMEOUT });
    const search = rig.chat.frame.getByTestId('sessions-search');
    await search.click();
    await rig.page.keyboard.type('fresh');
    // Each keystroke may bring its own page of results (debounced): wait for the list to settle
    // on the one match rather than reading it mid-update.
    const items = rig.chat.frame.getByTestId('session-item');
    let shown: string[] = [];
    for (const until = Date.now() + TIMEOUT; Date.now() < until; ) {
      shown = await items.allInnerTexts();
      if (shown.length === 1 && shown[0]!.includes('green')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.strictEqual(shown.length, 1, `one conversation found, got: ${JSON.stringify(shown)}`);
    assert.match(shown[0]!, /green/);
    await rig.chat.frame.getByTestId('sessions-back').click();
  });

  it('Edit and resend starts a branch: the model gets the edited history and the view switches between versions', async () => {
    rig.server.load({ turns: [reply.text('Red is loud.'), reply.text('Purple is royal.')] });
    await rig.chat.newChat();
    await rig.chat.send('tell me about red');
    await rig.chat.finishedAnswer();
    const requestsBefore = rig.server.requests.length;

    const prompt = rig.chat.byRole('user').first();
    await prompt.hover();
    await prompt.getByTestId('edit-resend').click();
    const box = rig.chat.frame.getByTestId('edit-resend-input');
    await box.fill('tell me about purple');
    await rig.chat.frame.getByTestId('edit-resend-send').click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Purple is royal.' }).waitFor({ timeout: TIMEOUT });
    await rig.chat.finishedAnswer();

    assert.deepStrictEqual(userTexts(rig.server, requestsBefore), ['tell me about purple'], 'the abandoned prompt is not sent');
    assert.deepStrictEqual(await rig.chat.transcript(), [
      ['user', 'tell me about purple'],
      ['assistant', 'Purple is royal.'],
    ]);
    const label = rig.chat.frame.getByTestId('branch-label');
    assert.strictEqual((await label.innerText()).trim(), 'branch 2/2');

    await rig.chat.frame.getByTestId('branch-prev').click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Red is loud.' }).waitFor({ timeout: TIMEOUT });
    assert.strictEqual((await rig.chat.frame.getByTestId('branch-label').innerText()).trim(), 'branch 1/2');
  });

  it('opens a conversation from "Keel: Open Session…", searching by message text', async () => {
    await rig.chat.newChat();
    const widget = rig.page.locator('.quick-input-widget');
    await rig.page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('input').fill('>Keel: Open Session');
    await widget.locator('.monaco-list-row', { hasText: 'Keel: Open Session' }).first().waitFor({ timeout: TIMEOUT });
    await widget.locator('input').press('Enter');
    await widget.locator('.monaco-list-row', { hasText: 'tell me about the colour blue' }).waitFor({ timeout: TIMEOUT });
    await widget.locator('input').fill('calm');
    const row = widget.locator('.monaco-list-row', { hasText: 'tell me about the colour blue' });
    await widget.locator('.monaco-list-row', { hasText: 'tell me about the colour green' }).waitFor({ state: 'detached', timeout: TIMEOUT });
    await row.click();
    await rig.chat.byRole('assistant').filter({ hasText: 'Blue is calm.' }).waitFor({ timeout: TIMEOUT });
  });

  it('exports a conversation to JSON through the save dialog, in the workspace folder by default', async () => {
    await showSessions();
    const blue = rig.chat.frame.locator('[data-testid="session-row"]').filter({ hasText: 'tell me about the colour blue' });
    await blue.hover();
    await blue.getByTestId('session-export-json').click();
    // code-server's save dialog is VS Code's own file input: the proposed path is accepted with Enter.
    const widget = rig.page.locator('.quick-input-widget');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    // The dialog fills in the proposed path a moment after it opens.
    let proposed = '';
    for (const until = Date.now() + TIMEOUT; !proposed.endsWith('.json') && Date.now() < until; ) {
      proposed = await widget.locator('input').inputValue();
      if (!proposed.endsWith('.json')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.strictEqual(proposed, join(rig.workspace, 'tell-me-about-the-colour-blue.json'));
    await widget.locator('input').press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });
    const file = join(rig.workspace, 'tell-me-about-the-colour-blue.json');
    // The file may exist a moment before all of it is written.
    const deadline = Date.now() + TIMEOUT;
    let text = '';
    while (Date.now() < deadline) {
      text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (text.trimEnd().endsWith('}')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const doc = JSON.parse(text) as { format: string; entries: { message: { role: string; content: unknown } }[] };
    assert.strictEqual(doc.format, 'keel-session');
    assert.deepStrictEqual(
      doc.entries.map((e) => [e.message.role, contentText(e.message.content)]),
      [
        ['user', 'tell me about the colour blue'],
        ['assistant', 'Blue is calm.'],
      ],
    );
    rmSync(file, { force: true });
    await rig.chat.frame.getByTestId('sessions-back').click();
  });
});
