import { describe, expect, it, vi } from 'vitest';
import type { HostWebview } from '../../../src/protocol/postMessageTransport';
import { EarlyMessageBuffer, PAGE_SHOWN } from '../../../src/chat/conversations/earlyMessageBuffer';
import { chatPageHtml, missingUiHtml, newNonce } from '../../../src/vscode/view/webviewHtml';

describe('chatPageHtml', () => {
  const html = chatPageHtml({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'N0nce+/=',
    script: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
    styles: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css', 'x".css'],
    locale: { language: 'zh-cn', strings: { Send: '发送', 'a</script><script>alert(1)</script>': '<b>' } },
  });

  it('has the strict policy with this render nonce', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toBe(
      "default-src 'none'; script-src 'nonce-N0nce+/='; style-src https://file+.vscode-resource.vscode-cdn.net 'nonce-N0nce+/='; " +
        "font-src https://file+.vscode-resource.vscode-cdn.net; img-src https://file+.vscode-resource.vscode-cdn.net data:; connect-src 'none'",
    );
  });

  it('carries the language and its strings as inert JSON that no string can break out of', () => {
    expect(html).toContain('<html lang="zh-cn">');
    const json = /<script type="application\/json" id="keel-locale">([^<]*)<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(JSON.parse(json!)).toEqual({ language: 'zh-cn', strings: { Send: '发送', 'a</script><script>alert(1)</script>': '<b>' } });
  });

  it('starts the one script with the nonce into a hidden root, and escapes attributes', () => {
    expect(html).toContain('<div id="root" hidden></div>');
    expect(html.match(/<script(?! type="application\/json")/g)).toHaveLength(1);
    expect(html).toContain('<script nonce="N0nce+/=">');
    expect(html).toContain('"https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js"');
    expect(html).toContain('href="x&quot;.css"');
  });

  it('makes a new nonce each time', () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(newNonce()).not.toBe(a);
  });

  it('explains a missing build instead of showing nothing', () => {
    const page = missingUiHtml('src', 'n', ['dist/webview.js']);
    expect(page).toContain('<code>dist/webview.js</code>');
    expect(page).not.toContain('<script');
  });
});

describe('EarlyMessageBuffer', () => {
  function fakeWebview() {
    let listener: ((m: unknown) => void) | undefined;
    const webview: HostWebview & { fire(m: unknown): void } = {
      postMessage: vi.fn(() => true),
      onDidReceiveMessage(l) {
        listener = l;
        return { dispose: () => (listener = undefined) };
      },
      fire: (m) => listener?.(m),
    };
    return webview;
  }

  it('holds messages until released, then passes them through in order', () => {
    const inner = fakeWebview();
    const buffer = new EarlyMessageBuffer(inner);
    inner.fire({ n: 1 });
    const seen: unknown[] = [];
    buffer.onDidReceiveMessage((m) => seen.push(m));
    inner.fire({ n: 2 });
    expect(seen).toEqual([]);
    buffer.release();
    inner.fire({ n: 3 });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(buffer.postMessage('x')).toBe(true);
    buffer.dispose();
    inner.fire({ n: 4 });
    expect(seen).toHaveLength(3);
  });

  it('tells once when the page first posts, and keeps its "shown" note off the bus', () => {
    const inner = fakeWebview();
    const buffer = new EarlyMessageBuffer(inner);
    const spoke = vi.fn();
    buffer.onPageSpoke(spoke);
    expect(spoke).not.toHaveBeenCalled();
    inner.fire({ ...PAGE_SHOWN });
    inner.fire({ n: 1 });
    expect(spoke).toHaveBeenCalledTimes(1);
    const late = vi.fn();
    buffer.onPageSpoke(late);
    expect(late).toHaveBeenCalledTimes(1);

    const seen: unknown[] = [];
    buffer.onDidReceiveMessage((m) => seen.push(m));
    buffer.release();
    inner.fire({ ...PAGE_SHOWN });
    inner.fire({ n: 2 });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
