// @vitest-environment jsdom
// The chat page speaks the language the host serves it: the strings come in the page (only the
// webview's share of the catalogue), are checked against the protocol, and drive every label.
import * as l10n from '@vscode/l10n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatPageHtml } from '../../../src/vscode/view/webviewHtml';
import { pickWebviewStrings } from '../../../src/vscode/view/webviewStrings';
import { applyPageLocale } from '../../../webview/l10n/pageLocale';
import zhBundle from '../../../l10n/bundle.l10n.zh-cn.json';
import webviewKeys from '../../../l10n/webviewKeys.json';
import { mountApp, snapshot, settle } from './webviewHarness';
import type { MountedApp } from './webviewHarness';


function page(locale: ReturnType<typeof pickWebviewStrings>): Document {
  const html = chatPageHtml({ cspSource: 'vscode-resource:', nonce: 'n', script: 'webview.js', styles: [], locale });
  return new DOMParser().parseFromString(html, 'text/html');
}

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
  l10n.config({ contents: {} });
});

describe('the page locale', () => {
  it('hands the page only the webview strings, and none for English', () => {
    const zh = pickWebviewStrings('zh-CN', zhBundle, webviewKeys);
    expect(zh.language).toBe('zh-cn');
    expect(Object.keys(zh.strings).length).toBeGreaterThan(100);
    expect(Object.keys(zh.strings).every((key) => webviewKeys.includes(key))).toBe(true);
    // A host-only message (the status bar's) stays with the host.
    expect(zh.strings['Keel: plan mode (read-only)']).toBeUndefined();
    expect(pickWebviewStrings('en', undefined, webviewKeys)).toEqual({ language: 'en', strings: {} });
  });

  it('draws the chat in Chinese from the strings in the page', async () => {
    const log = vi.fn();
    expect(applyPageLocale(page(pickWebviewStrings('zh-cn', zhBundle, webviewKeys)), log)).toBe('zh-cn');
    expect(log).not.toHaveBeenCalled();
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ session: { id: null, title: null } }));
    await settle();
    expect(app.byTestId('composer-input').getAttribute('placeholder')).toBe('问问 Keel…（@ 添加文件，/ 使用命令）');
    expect(app.byTestId('mode-act').textContent).toBe('执行');
    expect(app.byTestId('mode-plan').textContent).toBe('计划');
    expect(app.container.querySelector('.header-title')?.textContent).toBe('新建聊天');
    expect(app.container.textContent).toContain('让 Keel 解释、修改或规划这个工作区中的代码。');
  });

  it('falls back to English, and says why, when the page carries no valid locale', async () => {
    const log = vi.fn();
    const doc = page({ language: 'zh-cn', strings: {} });
    doc.getElementById('keel-locale')!.textContent = '{"language": "zh-cn", "strings": {"Send": 5}}';
    expect(applyPageLocale(doc, log)).toBe('en');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('does not match the protocol'));
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    expect(app.byTestId('mode-act').textContent).toBe('Act');
  });
});
