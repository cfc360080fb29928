/// <reference types="mocha" />
// The chat in Simplified Chinese, as it looks in code-server's real sidebar: at 220 and 500 px
// the footer's pickers and buttons, the placeholder and the "/" and "@" menus keep their Chinese
// labels whole and on one line, and the README's Chinese screenshots are taken from here. A
// machine without a CJK font would draw boxes instead of characters: the run fails then.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import type { Frame } from 'playwright-core';
import { seriousViolations } from './support/axeCheck.ts';
import { assertNothingCut, openEditConversation, takeReadmeScreenshots } from './support/chatLayout.ts';
import { useTheme } from './support/colorTheme.ts';
import { setSidebarWidth } from './support/sidebarWidth.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
const ANSWER = [
  '`average()` 在空列表上会抛出异常：`values.length` 为 `0`，所以它拒绝做除法。',
  '',
  '更安全的写法是返回 `0`：',
  '',
  '```ts',
  'export function average(values: number[]): number {',
  '  return values.length === 0 ? 0 : sum(values) / values.length;',
  '}',
  '```',
].join('\n');

/** The fonts fontconfig offers for Chinese; Chromium draws Han characters only with one of them. */
function chineseFonts(): string {
  try {
    return execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(`fc-list failed (${String(err)}): install fontconfig and a CJK font (Debian: fonts-wqy-microhei)`);
  }
}

describe('how the chat looks in Chinese', () => {
  before(() => {
    assert.notStrictEqual(chineseFonts(), '', 'no font for Chinese (fc-list :lang=zh is empty): Chromium would draw boxes; install one (Debian: apt-get install fonts-wqy-microhei)');
  });

  const rig = useChatRig({ locale: 'zh-cn', cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined) });
  let frame: Frame;

  before(async function () {
    this.timeout(120_000);
    assert.strictEqual(await rig.page.evaluate(() => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE), 'zh-cn', 'the workbench runs in Chinese');
    frame = await openEditConversation(rig, { answer: ANSWER, question: '为什么 average() 在空列表上会失败？', followUp: '改成返回 0' });
    assert.strictEqual(await rig.chat.frame.getByTestId('mode-act').innerText(), '执行', 'the page speaks Chinese');
  });

  for (const width of [500, 220]) {
    it(`keeps the Chinese labels whole and on one line at ${width} px: pickers, buttons, placeholder, "/" and "@" menus`, async () => {
      await assertNothingCut(rig, frame, width);
      assert.match(await rig.chat.frame.getByTestId('context-meter').innerText(), /上下文/);
    });
  }

  it('keeps the plan banner and each past chat\'s details whole in Chinese at 220 px', async () => {
    await setSidebarWidth(rig.page, frame, 220);
    await rig.chat.frame.getByTestId('mode-plan').click();
    const banner = rig.chat.frame.getByTestId('plan-banner');
    await banner.waitFor({ timeout: TIMEOUT });
    const squeezed = await banner.evaluate((element) => element.scrollHeight > element.clientHeight + 1 || element.getBoundingClientRect().right > window.innerWidth + 1);
    await rig.chat.frame.getByTestId('mode-act').click();
    await banner.waitFor({ state: 'detached', timeout: TIMEOUT });
    assert.strictEqual(squeezed, false, 'the plan banner is cut');

    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.frame.getByTestId('session-item').first().waitFor({ timeout: TIMEOUT });
    const cut = await frame.evaluate(() =>
      [...document.querySelectorAll('.session-meta')]
        .filter((meta) => meta.scrollWidth > meta.clientWidth + 1 || meta.getBoundingClientRect().right > window.innerWidth + 1)
        .map((meta) => meta.textContent ?? ''),
    );
    const meta = await rig.chat.frame.locator('.session-meta').first().innerText();
    await rig.chat.frame.getByTestId('show-sessions').click();
    await rig.chat.composer().waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual(cut, []);
    assert.match(meta, /条消息/);
  });

  for (const [theme, kind] of [['Default Light Modern', 'vscode-light'], ['Default Dark Modern', 'vscode-dark']] as const) {
    it(`has no serious or critical accessibility problem in Chinese in ${theme}`, async () => {
      await useTheme(rig.workspace, frame, theme, kind);
      const found = await seriousViolations(frame);
      assert.deepStrictEqual(found, [], `axe-core in ${theme}:\n${JSON.stringify(found, null, 2)}`);
    });
  }

  // The README's pictures in Chinese, beside the English ones chatLook.e2e.ts takes.
  it('takes the README screenshots in Chinese', async () => {
    assert.strictEqual((await takeReadmeScreenshots(rig, frame, 'zh')).length, 4);
  });
});
