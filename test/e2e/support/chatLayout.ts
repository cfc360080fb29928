// What the chat-look browser tests share: the conversation they look at, what is cut or broken over lines in the view (the
// footer's pickers and their open lists, buttons, the composer's placeholder, an open "/" or "@" menu), switching
// the colour theme, and the README's screenshots, in either language.
import * as assert from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { keelContentFrame } from '../harness/keelView.ts';
import type { ChatRig } from './useChatRig.ts';
import { useTheme } from './colorTheme.ts';
import { setSidebarWidth } from './sidebarWidth.ts';

const TIMEOUT = 30_000;

/**
 * The conversation the look tests draw: a Markdown answer with code, a read, and an edit of
 * src/math.ts whose approval card is left open. Returns the chat's content frame.
 */
export async function openEditConversation(rig: ChatRig, texts: { answer: string; question: string; followUp: string }): Promise<Frame> {
  rig.server.load({
    turns: [
      reply.text(texts.answer, { match: { lastUserIncludes: 'average' } }),
      reply.tool('read', { file_path: 'src/math.ts' }),
      reply.tool('edit', { file_path: 'src/math.ts', old_string: "  if (values.length === 0) throw new Error('average of an empty list');\n", new_string: '  if (values.length === 0) return 0;\n' }),
    ],
  });
  await rig.chat.send(texts.question);
  await rig.chat.finishedAnswer();
  await rig.chat.send(texts.followUp);
  await rig.chat.approvalCard().waitFor({ timeout: TIMEOUT });
  return keelContentFrame(rig.page);
}

/** What is cut in the footer, the composer and an open completion menu, in words (empty when nothing is). */
export async function cutThings(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const cut: string[] = [];
    const width = window.innerWidth;
    const overflows = (element: Element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
    for (const picker of document.querySelectorAll('.footer [role="combobox"]')) {
      const value = picker.querySelector('.ui-select-value');
      const name = picker.getAttribute('aria-label') ?? 'a picker';
      if (!value || !(value.textContent ?? '').trim()) cut.push(`${name}: no value shown`);
      else if (overflows(value) || overflows(picker)) cut.push(`${name}: "${value.textContent}" is cut`);
      if (picker.getBoundingClientRect().right > width + 1) cut.push(`${name}: runs past the view's edge`);
    }
    // An open picker's list: inside the view, every option's whole label shown.
    for (const list of document.querySelectorAll('.ui-select-list:not([hidden])')) {
      const box = list.getBoundingClientRect();
      const name = list.getAttribute('aria-label') ?? 'a picker';
      if (box.left < -1 || box.right > width + 1 || box.top < -1 || box.bottom > window.innerHeight + 1) cut.push(`${name}: its open list runs past the view's edge`);
      for (const option of list.querySelectorAll('[role="option"]')) {
        if (!(option.textContent ?? '').trim()) cut.push(`${name}: an option shows no name`);
        else if (option.scrollWidth > option.clientWidth + 1) cut.push(`${name}: option "${option.textContent}" is cut`);
      }
    }
    for (const element of document.querySelectorAll('.footer > *')) {
      if (element.getBoundingClientRect().right > width + 1) cut.push(`${element.className}: runs past the view's edge`);
    }
    // Short labels stay on one line ("You" broken into "Yo" / "u" is cut too; a Chinese
    // button's label broken after one character is as bad), and a button's label stays inside it.
    // (A picker's label may wrap: it is checked above.)
    for (const label of document.querySelectorAll('.message-author, button:not([role="combobox"]), .footer [data-testid="context-meter"]')) {
      if ((label.textContent ?? '').trim() === '' || label.getBoundingClientRect().width < 1 || !label.checkVisibility({ visibilityProperty: true })) continue;
      if (label.tagName === 'BUTTON' && overflows(label)) cut.push(`the button "${label.textContent}" is cut`);
      // The lines its text takes: text boxes more than one line's height apart.
      const boxes: DOMRect[] = [];
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!(node.textContent ?? '').trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        boxes.push(...range.getClientRects());
      }
      if (boxes.length === 0) continue;
      const lineHeight = Math.max(...boxes.map((b) => b.height));
      const extent = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
      if (extent > lineHeight * 1.5) cut.push(`the label "${(label.textContent ?? '').trim()}" breaks over lines (${boxes.map((b) => `${Math.round(b.width)}×${Math.round(b.height)} at ${Math.round(b.left)},${Math.round(b.top)}`).join('; ')}; white-space ${getComputedStyle(label).whiteSpace}, parent ${Math.round(label.parentElement?.getBoundingClientRect().width ?? 0)} px)`);
    }
    // A message's header keeps one line while its actions hide (in a narrow view they may take a
    // line of their own while they show, under the pointer).
    for (const header of document.querySelectorAll('.message-header')) {
      if (header.closest('.message')?.matches(':hover')) continue;
      const author = header.querySelector('.message-author');
      if (author && header.getBoundingClientRect().height > author.getBoundingClientRect().height * 2.2) cut.push(`the header of "${author.textContent}"'s message takes more than one line`);
    }
    // One-line fields show their whole placeholder.
    for (const field of document.querySelectorAll<HTMLInputElement>('input.ui-text-field')) {
      const placeholder = field.placeholder;
      if (!placeholder || field.value !== '' || field.getBoundingClientRect().width < 1) continue;
      field.value = placeholder;
      if (field.scrollWidth > field.clientWidth + 1) cut.push(`the placeholder "${placeholder}" is cut`);
      field.value = '';
    }
    const input = document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]');
    if (input && input.value === '' && input.placeholder) {
      const shown = input.clientHeight;
      input.value = input.placeholder;
      if (input.scrollHeight > shown + 1) cut.push(`the placeholder "${input.placeholder}" is cut`);
      input.value = '';
    }
    const popup = document.querySelector('[data-testid="completion-popup"]');
    if (popup) {
      const box = popup.getBoundingClientRect();
      for (const label of popup.querySelectorAll('.completion-label')) {
        const rect = label.getBoundingClientRect();
        const text = (label.textContent ?? '').trim();
        if (!text || rect.width < 1) cut.push(`a menu item shows no name`);
        else if (overflows(label) || rect.right > box.right + 1 || rect.left < box.left - 1) cut.push(`menu item "${text}" is cut`);
      }
    }
    return cut;
  });
}

/** Nothing cut at `width` px with the composer empty, and nothing with the "/" and "@" menus or a picker's list open. */
export async function assertNothingCut(rig: ChatRig, frame: Frame, width: number): Promise<void> {
  await setSidebarWidth(rig.page, frame, width);
  assert.deepStrictEqual(await cutThings(frame), [], `at ${width} px`);
  // A person's message shows its actions (edit, "Restore files to here") under the pointer.
  await rig.chat.byRole('user').last().hover();
  assert.deepStrictEqual(await cutThings(frame), [], `at ${width} px, the pointer over a message of the person`);
  await rig.page.mouse.move(width + 300, 300);
  const input = rig.chat.composer();
  for (const typed of ['/', '@']) {
    await input.fill('');
    await input.pressSequentially(typed);
    await rig.chat.frame.getByTestId('completion-item').first().waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(await cutThings(frame), [], `the ${typed} menu at ${width} px`);
    await input.press('Escape');
  }
  await input.fill('');
  // The pickers' lists, opened from the keyboard: whole labels, inside the view; Escape closes them
  // unchanged, Space opens and Enter chooses the highlighted option (the chosen one, so nothing changes
  // under the rest of the look tests); the mouse opens and chooses too.
  for (const id of ['model-picker', 'mode-picker']) {
    const picker = rig.chat.frame.getByTestId(id);
    const list = rig.chat.frame.locator('.ui-select-list:not([hidden])');
    const before = await picker.innerText();
    const expanded = () => picker.getAttribute('aria-expanded');
    await picker.focus();
    await picker.press('ArrowDown');
    await list.waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(await cutThings(frame), [], `the ${id}'s open list at ${width} px`);
    await picker.press('Escape');
    assert.strictEqual(await expanded(), 'false', `Escape closes the ${id}'s list`);
    await picker.press(' ');
    assert.strictEqual(await expanded(), 'true', `Space opens the ${id}'s list`);
    await picker.press('Enter');
    assert.strictEqual(await expanded(), 'false', `Enter closes the ${id}'s list`);
    await picker.click();
    await list.getByRole('option', { name: before, exact: true }).click();
    assert.strictEqual(await expanded(), 'false', `a click on an option closes the ${id}'s list`);
    assert.strictEqual(await picker.innerText(), before, `the ${id} is as it was`);
  }
  await rig.page.mouse.move(width + 300, 300);
  await input.focus();
}

/** The README's pictures of the side bar: light and dark, 220 and 500 px, as chat-<language>-<theme>-<width>.png. */
export async function takeReadmeScreenshots(rig: ChatRig, frame: Frame, language: 'en' | 'zh'): Promise<string[]> {
  const dir = join(process.cwd(), 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const taken: string[] = [];
  for (const [theme, kind, name] of [['Default Light Modern', 'vscode-light', 'light'], ['Default Dark Modern', 'vscode-dark', 'dark']] as const) {
    await useTheme(rig.workspace, frame, theme, kind);
    for (const width of [220, 500]) {
      await setSidebarWidth(rig.page, frame, width);
      // The pointer rests in the editor area, so no control in the picture shows a hover.
      await rig.page.mouse.move(width + 300, 300);
      const box = await rig.page.locator('.part.sidebar').boundingBox();
      assert.ok(box, 'the side bar is showing');
      const path = join(dir, `chat-${language}-${name}-${width}.png`);
      await rig.page.screenshot({ path, clip: box });
      taken.push(path);
    }
  }
  return taken;
}
