/// <reference types="mocha" />
// How the chat looks, in code-server's real sidebar: at 220 and 500 px wide nothing in the
// footer, the composer or the "/" and "@" menus is cut; in the light, dark, high-contrast and
// high-contrast-light themes axe-core finds no serious or critical problem (colour contrast
// included) and Act/Plan stay told apart; and the README's screenshots are taken from here.
import * as assert from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { keelContentFrame } from './harness/keelView.ts';
import { seriousViolations } from './support/axeCheck.ts';
import { THEMES, useTheme } from './support/colorTheme.ts';
import { setSidebarWidth } from './support/sidebarWidth.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
const ANSWER = [
  '`average()` throws on an empty list: `values.length` is `0`, so it refuses to divide.',
  '',
  'A safe version returns `0` instead:',
  '',
  '```ts',
  'export function average(values: number[]): number {',
  '  return values.length === 0 ? 0 : sum(values) / values.length;',
  '}',
  '```',
].join('\n');

/** What is cut in the footer, the composer and an open completion menu, in words (empty when nothing is). */
async function cutThings(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const cut: string[] = [];
    const width = window.innerWidth;
    const overflows = (element: Element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
    for (const dropdown of document.querySelectorAll('.footer vscode-dropdown')) {
      const value = dropdown.shadowRoot?.querySelector('.selected-value');
      const name = dropdown.getAttribute('aria-label') ?? 'a picker';
      if (!value) cut.push(`${name}: no value shown`);
      else if (overflows(value)) cut.push(`${name}: "${value.textContent}" is cut`);
      if (dropdown.getBoundingClientRect().right > width + 1) cut.push(`${name}: runs past the view's edge`);
    }
    for (const element of document.querySelectorAll('.footer > *')) {
      if (element.getBoundingClientRect().right > width + 1) cut.push(`${element.className}: runs past the view's edge`);
    }
    // Short labels stay on one line ("You" broken into "Yo" / "u" is cut too).
    for (const label of document.querySelectorAll('.message-author')) {
      const range = document.createRange();
      range.selectNodeContents(label);
      if (range.getClientRects().length > 1) cut.push(`the author label "${label.textContent}" breaks over lines`);
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

describe('how the chat looks in code-server', () => {
  const rig = useChatRig({ cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined) });
  let frame: Frame;

  before(async function () {
    this.timeout(120_000);
    rig.server.load({
      turns: [
        reply.text(ANSWER, { match: { lastUserIncludes: 'average' } }),
        reply.tool('read', { file_path: 'src/math.ts' }),
        reply.tool('edit', { file_path: 'src/math.ts', old_string: "  if (values.length === 0) throw new Error('average of an empty list');\n", new_string: '  if (values.length === 0) return 0;\n' }),
      ],
    });
    await rig.chat.send('Why does average() fail on an empty list?');
    await rig.chat.finishedAnswer();
    await rig.chat.send('Make it return 0 instead');
    await rig.chat.approvalCard().waitFor({ timeout: TIMEOUT });
    frame = await keelContentFrame(rig.page);
  });

  // Narrow after wide: what was laid out for the wider view must follow.
  for (const width of [500, 220]) {
    it(`cuts nothing at ${width} px: pickers, placeholder, "/" and "@" menus`, async () => {
      await setSidebarWidth(rig.page, frame, width);
      assert.deepStrictEqual(await cutThings(frame), []);
      const model = await rig.chat.frame.getByTestId('model-picker').evaluate((element) => element.shadowRoot?.querySelector('.selected-value')?.textContent?.trim());
      assert.strictEqual(model, 'scripted-model', 'the model the person configured, without Keel\'s custom/ prefix');

      const input = rig.chat.composer();
      for (const typed of ['/', '@']) {
        await input.fill('');
        await input.pressSequentially(typed);
        await rig.chat.frame.getByTestId('completion-item').first().waitFor({ timeout: TIMEOUT });
        assert.deepStrictEqual(await cutThings(frame), [], `the ${typed} menu at ${width} px`);
        await input.press('Escape');
      }
      await input.fill('');
      const meter = rig.chat.frame.getByTestId('context-meter');
      assert.match(await meter.innerText(), /Context/);
    });
  }

  it('keeps the plan banner whole and above the messages at 220 px', async () => {
    await setSidebarWidth(rig.page, frame, 220);
    await rig.chat.frame.getByTestId('mode-plan').click();
    await rig.chat.frame.getByTestId('plan-banner').waitFor({ timeout: TIMEOUT });
    const layout = await frame.evaluate(() => {
      const banner = document.querySelector('[data-testid="plan-banner"]')!;
      const list = document.querySelector('.virtual-list-frame')!;
      return { squeezed: banner.scrollHeight > banner.clientHeight + 1, bannerBottom: banner.getBoundingClientRect().bottom, listTop: list.getBoundingClientRect().top };
    });
    await rig.chat.frame.getByTestId('mode-act').click();
    await rig.chat.frame.getByTestId('plan-banner').waitFor({ state: 'detached', timeout: TIMEOUT });
    assert.strictEqual(layout.squeezed, false, 'the banner has the height of its text');
    assert.ok(layout.bannerBottom <= layout.listTop + 1, `the banner (bottom ${layout.bannerBottom}) covers the messages (top ${layout.listTop})`);
  });

  it('shows each past chat\'s details whole at 220 px', async () => {
    await setSidebarWidth(rig.page, frame, 220);
    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.frame.getByTestId('session-item').first().waitFor({ timeout: TIMEOUT });
    const cut = await frame.evaluate(() =>
      [...document.querySelectorAll('.session-meta')]
        .filter((meta) => meta.scrollWidth > meta.clientWidth + 1 || meta.getBoundingClientRect().right > window.innerWidth + 1)
        .map((meta) => meta.textContent ?? ''),
    );
    assert.deepStrictEqual(cut, []);
    assert.match(await rig.chat.frame.locator('.session-meta').first().innerText(), /messages/);
    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.composer().waitFor({ timeout: TIMEOUT });
  });

  for (const [theme, kind] of THEMES) {
    it(`has no serious or critical accessibility problem in ${theme}, and Act/Plan differ`, async () => {
      await useTheme(rig.workspace, frame, theme, kind);
      const found = await seriousViolations(frame);
      assert.deepStrictEqual(found, [], `axe-core in ${theme}:\n${JSON.stringify(found, null, 2)}`);
      const looks = await rig.chat.frame.locator('[data-testid="mode-switch"] button').evaluateAll((buttons) =>
        buttons.map((button) => {
          const style = getComputedStyle(button);
          return [style.backgroundColor, style.color, style.outlineStyle !== 'none' ? style.outlineColor : '', style.fontWeight].join(' ');
        }),
      );
      assert.notStrictEqual(looks[0], looks[1], `Act and Plan look the same in ${theme}`);
    });
  }

  // The README's pictures: English, light and dark, narrow and wide.
  it('takes the README screenshots', async () => {
    const dir = join(process.cwd(), 'docs', 'screenshots');
    mkdirSync(dir, { recursive: true });
    for (const [theme, kind, name] of [['Default Light Modern', 'vscode-light', 'light'], ['Default Dark Modern', 'vscode-dark', 'dark']] as const) {
      await useTheme(rig.workspace, frame, theme, kind);
      for (const width of [220, 500]) {
        await setSidebarWidth(rig.page, frame, width);
        const box = await rig.page.locator('.part.sidebar').boundingBox();
        assert.ok(box, 'the side bar is showing');
        await rig.page.screenshot({ path: join(dir, `chat-en-${name}-${width}.png`), clip: box });
      }
    }
  });
});
