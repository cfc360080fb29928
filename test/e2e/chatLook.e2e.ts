/// <reference types="mocha" />
// How the chat looks, in code-server's real sidebar: at 220 and 500 px wide nothing in the
// footer, the composer or the "/" and "@" menus is cut; in the light, dark, high-contrast and
// high-contrast-light themes axe-core finds no serious or critical problem (colour contrast
// included) and Act/Plan stay told apart; and the README's screenshots are taken from here.
import * as assert from 'node:assert';
import type { Frame } from 'playwright-core';
import { seriousViolations } from './support/axeCheck.ts';
import { assertNothingCut, openEditConversation, takeReadmeScreenshots } from './support/chatLayout.ts';
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

describe('how the chat looks in code-server', () => {
  const rig = useChatRig({ cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined) });
  let frame: Frame;

  before(async function () {
    this.timeout(120_000);
    frame = await openEditConversation(rig, { answer: ANSWER, question: 'Why does average() fail on an empty list?', followUp: 'Make it return 0 instead' });
  });

  // Narrow after wide: what was laid out for the wider view must follow.
  for (const width of [500, 220]) {
    it(`cuts nothing at ${width} px: pickers, placeholder, "/" and "@" menus`, async () => {
      await assertNothingCut(rig, frame, width);
      const model = (await rig.chat.frame.getByTestId('model-picker').innerText()).trim();
      assert.strictEqual(model, 'scripted-model', 'the model the person configured, without Keel\'s custom/ prefix');
      const meter = rig.chat.frame.getByTestId('context-meter');
      assert.match(await meter.innerText(), /Context/);
    });
  }

  it('offers New Chat and past chats once (in the chat\'s header, not again in the view\'s title bar), and names the change once on its card', async () => {
    await rig.chat.frame.getByTestId('new-chat').waitFor({ timeout: TIMEOUT });
    await rig.chat.frame.getByTestId('show-sessions').waitFor({ timeout: TIMEOUT });
    const titleBar = await rig.page.locator('.part.sidebar .title-actions .action-label').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
    assert.deepStrictEqual(titleBar.filter((label) => /new chat|history|sessions|past chats/i.test(label)), [], `the title bar: ${titleBar.join(' | ')}`);
    const card = await rig.chat.approvalCard().innerText();
    assert.strictEqual(card.split('src/math.ts').length - 1, 1, `the card names the file once:\n${card}`);
  });

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
      // The pickers and icon buttons wear the theme's colours.
      const controls = await frame.evaluate(() => {
        const color = (value: string) => {
          const probe = document.createElement('span');
          probe.style.color = value;
          document.body.append(probe);
          const shown = getComputedStyle(probe).color;
          probe.remove();
          return shown;
        };
        const theme = getComputedStyle(document.body);
        const picker = document.querySelector('[data-testid="model-picker"]');
        const icon = document.querySelector('[data-testid="new-chat"]');
        return {
          picker: picker ? getComputedStyle(picker).backgroundColor : 'no picker',
          pickerWanted: color(theme.getPropertyValue('--vscode-dropdown-background')),
          icon: icon ? getComputedStyle(icon).color : 'no button',
          iconWanted: color(theme.getPropertyValue('--vscode-foreground')),
        };
      });
      assert.strictEqual(controls.picker, controls.pickerWanted, `the model picker's background in ${theme}`);
      assert.strictEqual(controls.icon, controls.iconWanted, `the New chat button's colour in ${theme}`);
    });
  }

  // The README's pictures: English, light and dark, narrow and wide (chatLookChinese.e2e.ts takes the Chinese ones).
  it('takes the README screenshots', async () => {
    assert.strictEqual((await takeReadmeScreenshots(rig, frame, 'en')).length, 4);
  });
});
