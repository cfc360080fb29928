/// <reference types="mocha" />
// Keel in Simplified Chinese: a browser whose VS Code display language is zh-cn (the
// `vscode.nls.locale` cookie, with the fixture language pack that makes zh-cn selectable) sees
// the view's name and the command titles from package.nls.zh-cn.json and the chat page from
// l10n/bundle.l10n.zh-cn.json. VS Code's own strings stay English: the fixture pack has none.
import * as assert from 'node:assert';
import { e2eEnv } from './harness/e2eEnv.ts';
import { useWorkbench } from './harness/useWorkbench.ts';
import { openWorkbench, runCommand } from './harness/workbench.ts';
import { ChatView } from './support/chatView.ts';
import { openWalkthrough, paletteFor } from './support/palette.ts';

const TIMEOUT = 30_000;

describe('Keel in Chinese', () => {
  const { url } = e2eEnv();
  const wb = useWorkbench({ open: false });
  let chat: ChatView;

  before(async function () {
    this.timeout(120_000);
    await wb.page.context().addCookies([{ name: 'vscode.nls.locale', value: 'zh-cn', url }]);
    await openWorkbench(wb.page, url);
    // The workbench itself says which language it runs in.
    assert.strictEqual(await wb.page.evaluate(() => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE), 'zh-cn');
    chat = new ChatView(wb.page);
    await chat.open();
  });

  it('names the view and draws the chat in Chinese', async () => {
    // A container with one view shows the view's name in the sidebar's title ("KEEL: 聊天").
    await wb.page.locator('.part.sidebar .title-label', { hasText: '聊天' }).first().waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await chat.composer().getAttribute('placeholder'), '问问 Keel…（@ 添加文件，/ 使用命令）');
    assert.strictEqual(await chat.frame.getByTestId('mode-act').innerText(), '执行');
    assert.strictEqual(await chat.frame.getByTestId('mode-plan').innerText(), '计划');
    assert.strictEqual(await chat.frame.locator('html').getAttribute('lang'), 'zh-cn');
  });

  it('titles the commands in Chinese, and "Keel: 计划" selects "Keel: 计划…"', async () => {
    const plan = await paletteFor(wb.page, 'Keel: 计划', 'Keel: 计划…');
    assert.strictEqual(plan.selected, 'Keel: 计划…', `rows: ${plan.labels.join(' | ')}`);
    const chatCommands = await paletteFor(wb.page, 'Keel: 新建聊天', 'Keel: 新建聊天');
    assert.strictEqual(chatCommands.selected, 'Keel: 新建聊天');
  });

  it('says plan mode in Chinese in the status bar (the host\'s vscode.l10n bundle) and in the chat', async () => {
    await runCommand(wb.page, 'Keel: 切换计划模式');
    await wb.page.locator('.statusbar-item', { hasText: 'Keel: 计划模式' }).first().waitFor({ timeout: TIMEOUT });
    await chat.frame.getByTestId('plan-banner').filter({ hasText: '计划模式：Keel 只读取和规划' }).waitFor({ timeout: TIMEOUT });
    await runCommand(wb.page, 'Keel: 切换计划模式');
    await wb.page.locator('.statusbar-item', { hasText: 'Keel: 计划模式' }).first().waitFor({ state: 'hidden', timeout: TIMEOUT });
  });

  it('walks through getting started in Chinese', async () => {
    await openWalkthrough(wb.page, 'Keel 入门');
    const steps = wb.page.locator('.getting-started-step .step-title');
    await steps.filter({ hasText: '连接模型' }).first().waitFor({ timeout: TIMEOUT });
    assert.deepStrictEqual((await steps.allInnerTexts()).map((t) => t.trim()).filter(Boolean), ['连接模型', '开始第一次聊天', '逐块审阅修改', '先计划，再动手', '回到之前的会话']);
  });
});
