// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHostBus, createWebviewBus } from '../../../src/protocol/buses';
import { EARLY_TEXT_CHARS, earlyViewOf } from '../../../src/protocol/earlyView';
import { drawEarlyView } from '../../../src/vscode/view/earlyViewDraw';
import type { EarlyView } from '../../../src/protocol/earlyView';
import type { LogFn } from '../../../src/protocol/log';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EARLY_VIEW_KEYS, earlyViewHtml } from '../../../src/vscode/view/earlyViewHtml';
import { chatPageHtml } from '../../../src/vscode/view/webviewHtml';
import { BridgeContext } from '../../../webview/bridge/bridgeContext';
import { createUiBridge } from '../../../webview/bridge/uiBridge';
import { App } from '../../../webview/components/App';
import { EarlyViewHandOff } from '../../../webview/early/EarlyViewHandOff';
import { startEarlyViewSaver } from '../../../webview/early/earlyViewSaver';
import { ChatStore } from '../../../webview/store/chatStore';
import { StoreContext } from '../../../webview/store/storeContext';
import { assistantMessage, settle, snapshot, userMessage } from './webviewHarness';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

function toolMessage(id: string): UiMessage {
  return {
    id,
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Let me look.' },
      { type: 'toolCall', toolCallId: 't1', name: 'read', input: {}, display: { title: 'read', summary: 'src/app.ts', icon: 'file', details: { kind: 'keyValue', entries: [] } }, state: 'done' },
    ],
    status: 'done',
    createdAt: 3,
  };
}

describe('the early view kept between pages', () => {
  it('keeps the newest chat messages as text and tool lines, the end of a long one', () => {
    const long = `start ${'x'.repeat(EARLY_TEXT_CHARS * 2)} the end`;
    const messages = [
      ...Array.from({ length: 10 }, (_, i) => userMessage(`u${i}`, `question ${i}`)),
      { id: 'r', role: 'tool', parts: [{ type: 'toolResult', toolCallId: 't0', name: 'read', output: 'x', isError: false, truncated: false }], status: 'done', createdAt: 1 } satisfies UiMessage,
      toolMessage('a1'),
      assistantMessage('a2', long),
    ];
    const early = earlyViewOf(messages);
    expect(early.messages).toHaveLength(6);
    expect(early.messages.at(-2)).toEqual({ role: 'assistant', items: [{ kind: 'text', text: 'Let me look.' }, { kind: 'tool', label: 'read src/app.ts' }] });
    const last = early.messages.at(-1)!.items[0]!;
    expect(last.kind === 'text' && last.text.endsWith('the end') && !last.text.includes('start')).toBe(true);
    expect(early.messages[0]).toEqual({ role: 'user', items: [{ kind: 'text', text: 'question 6' }] });
  });

  it('draws only a state of its own shape', () => {
    const early = earlyViewOf([userMessage('u', 'hi'), toolMessage('a')]);
    const drawn = (state: unknown): number => {
      document.body.innerHTML = earlyViewHtml();
      drawEarlyView(state, document.getElementById('keel-early-list')!);
      return document.querySelectorAll('[data-testid="early-message"]').length;
    };
    expect(drawn(JSON.parse(JSON.stringify(early)))).toBe(2);
    expect(drawn(undefined)).toBe(0);
    expect(drawn({ v: 2, messages: early.messages })).toBe(0);
    expect(drawn({ v: 1, messages: [{ role: 'system', items: [{ kind: 'text', text: 'x' }] }] })).toBe(0);
    expect(drawn({ v: 1, messages: [{ role: 'user', items: [{ kind: 'html', html: '<b>x</b>' }] }] })).toBe(1);
    expect(document.querySelector('b')).toBeNull();
  });
});

describe('the page the host serves', () => {
  const script = 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js';

  it('reads as the chat before any script: header, empty state and composer', () => {
    const html = chatPageHtml({ cspSource: 'vscode-resource:', nonce: 'n', script, styles: [], locale: { language: 'en', strings: {} } });
    document.body.innerHTML = html.replace(/^[\s\S]*<body>/, '').replace(/<script[\s\S]*$/, '');
    const visible = (testId: string): boolean => {
      const element = document.querySelector(`[data-testid="${testId}"]`);
      return element !== null && element.closest('[hidden]') === null;
    };
    expect(document.querySelector('[data-testid="early-title"]')?.textContent).toBe('New chat');
    expect(visible('early-empty')).toBe(true);
    expect(document.querySelector('[data-testid="early-empty"]')?.textContent).toContain('Ask Keel to explain, change or plan code in this workspace.');
    expect(visible('early-composer')).toBe(true);
    expect(document.querySelector('[data-testid="early-composer"]')?.hasAttribute('autofocus')).toBe(true);
    expect(document.querySelector('[role="log"]')?.closest('[hidden]')).not.toBeNull();

    // Saved messages take the empty state's place; the saved title is the header's.
    drawEarlyView(earlyViewOf([userMessage('u', 'kept question')], 'Build notes'), document.getElementById('keel-early-list')!);
    expect(visible('early-empty')).toBe(false);
    expect(document.querySelector('[role="log"]')?.closest('[hidden]')).toBeNull();
    expect(document.querySelector('[data-testid="early-title"]')?.textContent).toBe('Build notes');
  });

  it('draws the saved messages as inert text, markdown as paragraphs and code', () => {
    const early: EarlyView = {
      v: 1,
      messages: [
        { role: 'user', items: [{ kind: 'text', text: '<img src=x onerror="alert(1)"> please' }] },
        { role: 'assistant', items: [{ kind: 'text', text: 'First <b>para</b>\nsame para\n\n```ts\nconst a = 1 < 2;\n```\nafter **bold** `x<y` [docs](https://e.example/a)' }, { kind: 'tool', label: 'edit <script>' }] },
      ],
    };
    document.body.innerHTML = earlyViewHtml();
    drawEarlyView(early, document.getElementById('keel-early-list')!);
    expect(document.querySelectorAll('img, b, script')).toHaveLength(0);
    const shown = [...document.querySelectorAll('[data-testid="early-message"]')];
    expect(shown.map((m) => m.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(shown[0]!.textContent).toContain('<img src=x onerror="alert(1)"> please');
    const paragraphs = [...shown[1]!.querySelectorAll('p')].map((p) => p.textContent);
    expect(paragraphs).toEqual(['First <b>para</b>\nsame para', 'after bold x<y [docs](https://e.example/a)']);
    expect(shown[1]!.querySelector('p strong')?.textContent).toBe('bold');
    expect(shown[1]!.querySelector('p code')?.textContent).toBe('x<y');
    expect(shown[1]!.querySelectorAll('a')).toHaveLength(0);
    expect(shown[1]!.querySelector('pre code')?.textContent).toBe('const a = 1 < 2;');
    expect(shown[1]!.querySelector('.early-tool')?.textContent).toBe('edit <script>');
    expect(document.querySelector('[data-testid="early-composer"]')).not.toBeNull();
  });

  it('draws the saved state and adds the UI script after load, under the nonce, from an inline script with the nonce', () => {
    const html = chatPageHtml({ cspSource: 'vscode-resource:', nonce: 'N0nce+/=', script: `${script}?a=</script>`, styles: [], locale: { language: 'en', strings: {} } });
    expect(html).toContain('<div id="root" hidden></div>');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !m[1]!.includes('application/json'));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toBe(' nonce="N0nce+/="');
    expect(scripts[0]![2]).toContain('?a=\\u003c/script>');

    // Run the page's start script as the webview would, with a saved state.
    document.body.innerHTML = html.replace(/^[\s\S]*<body>/, '').replace(/<script[\s\S]*$/, '');
    const api = { postMessage: vi.fn(), setState: vi.fn(), getState: () => earlyViewOf([userMessage('u', 'kept question')]) };
    const global = globalThis as unknown as { acquireVsCodeApi?: () => typeof api; keelVsCodeApi?: unknown };
    global.acquireVsCodeApi = () => api;
    try {
      new Function(scripts[0]![2]!)();
    } finally {
      delete global.acquireVsCodeApi;
    }
    expect(document.querySelector('[data-testid="early-message"]')?.textContent).toContain('kept question');
    expect(global.keelVsCodeApi).toBe(api);
    // The page is on screen: the host hears it (and loads its side then).
    expect(api.postMessage).toHaveBeenCalledWith({ keelPage: 'shown' });
    delete global.keelVsCodeApi;
    const added = document.querySelector<HTMLScriptElement>('body > script');
    expect(added?.getAttribute('src')).toBe(`${script}?a=</script>`);
    expect(added?.nonce).toBe('N0nce+/=');
  });

  it('speaks the page\'s language from the first paint: placeholder, labels and "You" of the saved messages', () => {
    const zh = JSON.parse(readFileSync(join(process.cwd(), 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    const pageKeys = JSON.parse(readFileSync(join(process.cwd(), 'l10n', 'webviewKeys.json'), 'utf8')) as string[];
    // Its strings are the chat's own, so the host hands them to the page with the rest.
    expect(pageKeys).toEqual(expect.arrayContaining([...EARLY_VIEW_KEYS]));
    const strings = Object.fromEntries(EARLY_VIEW_KEYS.map((key) => [key, zh[key]!]));
    const html = chatPageHtml({ cspSource: 'vscode-resource:', nonce: 'n', script, styles: [], locale: { language: 'zh-cn', strings } });
    document.body.innerHTML = html.replace(/^[\s\S]*<body>/, '').replace(/<script[\s\S]*$/, '');
    const composer = document.querySelector('[data-testid="early-composer"]')!;
    expect(composer.getAttribute('placeholder')).toBe('问问 Keel…（@ 添加文件，/ 使用命令）');
    expect(composer.getAttribute('aria-label')).toBe(zh['Message Keel']);
    expect(document.querySelector('[role="log"]')?.getAttribute('aria-label')).toBe(zh['Conversation']);
    const start = [...html.matchAll(/<script nonce[^>]*>([\s\S]*?)<\/script>/g)][0]![1]!;
    const api = { postMessage: vi.fn(), setState: vi.fn(), getState: () => earlyViewOf([userMessage('u', '你好')]) };
    const global = globalThis as unknown as { acquireVsCodeApi?: () => typeof api; keelVsCodeApi?: unknown };
    global.acquireVsCodeApi = () => api;
    try {
      new Function(start)();
    } finally {
      delete global.acquireVsCodeApi;
      delete global.keelVsCodeApi;
    }
    expect(document.querySelector('[data-testid="early-message"] .message-author')?.textContent).toBe('你');
  });
});

async function mountPage(early: EarlyView) {
  // The body chatPageHtml serves, without its start script (the test mounts the UI itself).
  document.body.innerHTML = `<div id="root" hidden></div>${earlyViewHtml()}`;
  drawEarlyView(early, document.getElementById('keel-early-list')!);
  const [hostEnd, webviewEnd] = createPairTransport();
  const log = vi.fn<LogFn>();
  const host = createHostBus(hostEnd, log);
  host.handle('models.list', () => ({ models: [{ id: 'gpt-x' }], current: 'gpt-x' }));
  const store = new ChatStore();
  const bridge = createUiBridge(createWebviewBus(webviewEnd, log), store, log);
  const root = document.getElementById('root')!;
  const earlyElement = document.getElementById('keel-early')!;
  const reactRoot = createRoot(root);
  await act(async () => {
    reactRoot.render(
      createElement(
        StoreContext.Provider,
        { value: store },
        createElement(BridgeContext.Provider, { value: bridge }, createElement(App), createElement(EarlyViewHandOff, { early: earlyElement, root })),
      ),
    );
  });
  return { host, store, root, unmount: () => act(async () => reactRoot.unmount()) };
}

describe('handing over to the UI', () => {
  it('shows the early view until the snapshot, then the UI in its place with what was typed', async () => {
    const page = await mountPage(earlyViewOf([userMessage('u1', 'old question')]));
    const typed = document.querySelector<HTMLTextAreaElement>('[data-testid="early-composer"]')!;
    typed.value = 'half a thought';
    expect(page.root.hidden).toBe(true);
    expect(document.querySelector('[data-testid="early-message"]')?.textContent).toContain('old question');

    page.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'old question'), assistantMessage('a1', 'the answer')] }));
    await settle();

    expect(document.getElementById('keel-early')).toBeNull();
    expect(page.root.hidden).toBe(false);
    expect(page.root.querySelectorAll('[data-testid="message"]').length).toBeGreaterThan(0);
    expect(page.root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')?.value).toBe('half a thought');
    await page.unmount();
  });

  it('keeps the caret where the person left it in the early composer', async () => {
    const page = await mountPage(earlyViewOf([]));
    const typed = document.querySelector<HTMLTextAreaElement>('[data-testid="early-composer"]')!;
    typed.value = 'fix the tests';
    typed.setSelectionRange(4, 4);

    page.host.emit('snapshot', snapshot({ messages: [] }));
    await settle();

    const input = page.root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
    expect(input.value).toBe('fix the tests');
    expect(input.selectionStart).toBe(4);
    await page.unmount();
  });
});

describe('saving the early view', () => {
  it('saves a streaming reply once per second, a finished message or a new conversation at once, nothing while idle', async () => {
    vi.useFakeTimers();
    const store = new ChatStore();
    const saved: EarlyView[] = [];
    const stop = startEarlyViewSaver(store, (view) => saved.push(view), 1000);
    store.replace(snapshot({ messages: [userMessage('u1', 'hello')] }));
    await Promise.resolve();
    expect(saved).toHaveLength(1);

    store.upsertMessage(assistantMessage('a1', '', 'streaming'));
    await Promise.resolve();
    const beforeStream = saved.length;
    for (let i = 0; i < 50; i++) store.textDelta('a1', 'word ');
    await Promise.resolve();
    expect(saved).toHaveLength(beforeStream);
    vi.advanceTimersByTime(1000);
    expect(saved).toHaveLength(beforeStream + 1);
    expect(saved.at(-1)!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.at(-1)!.messages[1]!.items[0]).toEqual({ kind: 'text', text: 'word '.repeat(50) });

    store.upsertMessage(assistantMessage('a1', 'the whole answer'));
    await Promise.resolve();
    expect(saved.at(-1)!.messages[1]!.items[0]).toEqual({ kind: 'text', text: 'the whole answer' });
    const settled = saved.length;
    vi.advanceTimersByTime(10_000);
    await Promise.resolve();
    expect(saved).toHaveLength(settled);

    store.replace(snapshot({ messages: [] }));
    await Promise.resolve();
    expect(saved.at(-1)).toEqual({ v: 1, messages: [] });
    stop();
  });
});
