/// <reference types="mocha" />
// Showing the chat: the page VS Code loads draws the conversation's last messages (from the
// state VS Code keeps for the view) and a composer before the chat's script has loaded, and
// the chat takes their place once the host's snapshot is in. The same page starts a new
// window's chat (bench: npm run bench -- vscodeView).
import * as assert from 'node:assert';
import type { Page } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { openKeelView } from './harness/keelView.ts';
import { runCommand } from './harness/workbench.ts';
import { ChatView } from './support/chatView.ts';
import { removeStoredConversations, setModelSettings } from './support/workspaceSettings.ts';

interface EarlySighting {
  /** Text of the early view's messages the first time it was on screen. */
  messages?: string[];
  /** The header's title and whether the empty state was shown. */
  title?: string;
  empty?: boolean;
  composer?: boolean;
  /** The chat's own root was hidden meanwhile (no "Connecting…", never both at once). */
  rootHidden?: boolean;
  /** The empty early composer's height and what its placeholder needs, the most it was short by. */
  placeholder?: { shown: number; needed: number };
  /** Text was typed into the early composer while it was on screen. */
  typed?: boolean;
}

/**
 * Watches, from the workbench page, every animation frame until the chat's composer is drawn,
 * and records what the early view showed while its page was the one on screen (VS Code shows
 * the page, `iframe#active-frame`, once it has loaded). The webview's frames are same-origin
 * with the workbench in code-server, so the page can look into them.
 */
async function watchForEarlyView(page: Page, extensionId: string): Promise<void> {
  await page.evaluate((id) => {
    const seen: EarlySighting = {};
    (window as unknown as { __keelEarly: EarlySighting }).__keelEarly = seen;
    const look = (): void => {
      const outer = document.querySelector<HTMLIFrameElement>(`iframe.webview[src*="extensionId=${id}"]`);
      const doc = outer?.contentDocument?.querySelector<HTMLIFrameElement>('iframe#active-frame')?.contentDocument;
      if (doc?.querySelector('[data-testid="composer-input"]')) return;
      const early = doc?.querySelector('[data-testid="early-view"]');
      if (doc && early) {
        seen.messages = [...early.querySelectorAll('[data-testid="early-message"]')].map((m) => m.textContent ?? '');
        seen.title = early.querySelector('[data-testid="early-title"]')?.textContent ?? undefined;
        seen.empty = early.querySelector('[data-testid="early-empty"]:not([hidden])') !== null;
        seen.composer = early.querySelector('[data-testid="early-composer"]') !== null;
        seen.rootHidden = doc.getElementById('root')?.hidden === true;
        const input = early.querySelector<HTMLTextAreaElement>('[data-testid="early-composer"]');
        if (input && input.value === '' && input.clientWidth > 0) {
          // Measured as if the placeholder were typed, and emptied again in the same frame.
          const shown = input.clientHeight;
          input.value = input.placeholder;
          const needed = input.scrollHeight;
          input.value = '';
          if (!seen.placeholder || needed - shown > seen.placeholder.needed - seen.placeholder.shown) seen.placeholder = { shown, needed };
        }
        // Typed in the frame the early composer is first seen: on a fast machine the chat may
        // take its place before a test step from outside the page could reach it.
        if (input && !seen.typed) {
          input.focus();
          input.value = 'draft more';
          input.setSelectionRange(input.value.length, input.value.length);
          input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'draft more' }));
          seen.typed = true;
        }
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, extensionId);
}

describe('the chat in a fresh window', () => {
  const { extensionId } = e2eEnv();
  // A new browser profile: nothing saved for the view, and this window's Keel not yet activated.
  const wb = useWorkbench();

  it('reads as the chat before its script loads, and keeps what was typed through the hand-off', async function () {
    this.timeout(120_000);
    await watchForEarlyView(wb.page, extensionId);
    await openKeelView(wb.page);
    const chat = new ChatView(wb.page);

    await chat.composer().waitFor({ timeout: 30_000 });
    const seen = await wb.page.evaluate(() => (window as unknown as { __keelEarly: EarlySighting }).__keelEarly);
    assert.ok(seen.typed, 'the early composer took text while it was on screen');
    assert.strictEqual(seen.title, 'New chat');
    assert.ok(seen.empty, 'the early view showed the empty state');
    assert.deepStrictEqual(seen.messages, []);
    assert.ok(seen.composer, 'the early view had a composer');
    assert.ok(seen.rootHidden, 'the chat stayed hidden behind the early view');
    assert.ok(seen.placeholder, 'the early composer was measured while empty');
    assert.ok(seen.placeholder.shown + 1 >= seen.placeholder.needed, `the early composer is ${seen.placeholder.shown} px tall, its placeholder needs ${seen.placeholder.needed} px`);
    await chat.frame.getByTestId('early-view').waitFor({ state: 'detached', timeout: 30_000 });
    assert.strictEqual(await chat.composer().inputValue(), 'draft more');
  });
});

describe('the chat shown again', () => {
  const { workspace, extensionId } = e2eEnv();
  let server: ScriptedServer;

  before(async () => {
    server = await startScriptedServer();
    setModelSettings(workspace, { baseURL: server.baseURL });
  });

  const wb = useWorkbench();

  after(async () => {
    await server?.close();
    removeStoredConversations(workspace);
  });

  it('draws the last messages from the page itself, then the chat takes over', async function () {
    this.timeout(120_000);
    const chat = new ChatView(wb.page);
    await chat.open();
    server.load({ turns: [reply.text('The build runs **esbuild** twice.')] });
    await chat.send('how does the build work?');
    assert.strictEqual(await chat.finishedAnswer(), 'The build runs esbuild twice.');

    // Another view in the sidebar ends the chat's page; showing the chat again makes a new one.
    await runCommand(wb.page, 'View: Show Explorer');
    await wb.page.locator('.part.sidebar [id="workbench.view.explorer"]').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.frame.locator('body').waitFor({ state: 'detached', timeout: 30_000 });
    await watchForEarlyView(wb.page, extensionId);
    await chat.open();

    const seen = await wb.page.evaluate(() => (window as unknown as { __keelEarly: EarlySighting }).__keelEarly);
    assert.ok(seen.messages, 'the early view was on screen before the chat');
    assert.strictEqual(seen.messages.length, 2, JSON.stringify(seen.messages));
    assert.match(seen.messages[0]!, /how does the build work\?/);
    assert.match(seen.messages[1]!, /The build runs esbuild twice\./);
    assert.ok(seen.composer, 'the early view had a composer');
    assert.ok(seen.rootHidden, 'the chat stayed hidden behind the early view');
    assert.ok(seen.placeholder, 'the early composer was measured while empty');
    assert.ok(seen.placeholder.shown + 1 >= seen.placeholder.needed, `the early composer is ${seen.placeholder.shown} px tall, its placeholder needs ${seen.placeholder.needed} px`);

    // The chat is the one on screen now, with the same conversation.
    await chat.frame.getByTestId('early-view').waitFor({ state: 'detached', timeout: 30_000 });
    await chat.byRole('assistant').filter({ hasText: 'The build runs esbuild twice.' }).waitFor({ timeout: 30_000 });
    await chat.frame.locator('[data-testid="message"] strong', { hasText: 'esbuild' }).waitFor({ timeout: 30_000 });
  });
});
