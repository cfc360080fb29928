import * as l10n from '@vscode/l10n';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ToolApp } from '../../../src/protocol/mcpApp';
import { useBridge } from '../../bridge/bridgeContext';
import type { HostSide } from '../../../src/protocol/catalogue';
import type { ResultOut } from '../../../src/protocol/side';
import { AppSession } from './mcpAppSession';
import type { AppSessionOptions } from './mcpAppSession';
import { appHostContext, appTheme, stampNonce } from './appPage';

declare const KEEL_VERSION: string;

/** Until the app says how tall it is. */
const START_HEIGHT = 120;

type Opened = ResultOut<HostSide, 'mcpApp.open'>;
type Page = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; html: string; opened: Opened };

/**
 * An MCP App on its tool card: the server's page in a frame with scripts and nothing else
 * (`sandbox="allow-scripts"`: an origin of its own, so no access to this page, its storage or
 * the host's bus), under the policy Keel put in it from what the app declared and under this
 * page's own (no network). It talks to Keel only through AppSession.
 */
export function AppFrame({ toolCallId, app }: { toolCallId: string; app: ToolApp }) {
  const bridge = useBridge();
  const frame = useRef<HTMLIFrameElement>(null);
  const [page, setPage] = useState<Page>({ kind: 'loading' });
  const [height, setHeight] = useState(START_HEIGHT);

  useEffect(() => {
    let live = true;
    void bridge.call('mcpApp.open', { toolCallId }).then((opened) => {
      if (!live) return;
      // When it failed the bridge said why; the card says the app is missing.
      setPage(opened ? { kind: 'ready', html: stampNonce(opened.html, appNonce()), opened } : { kind: 'failed' });
    });
    return () => {
      live = false;
    };
  }, [bridge, toolCallId]);

  // Right after the frame is in the page, before it loads: the app's first message is heard.
  useLayoutEffect(() => {
    if (page.kind !== 'ready' || !frame.current) return undefined;
    return connectApp(frame.current, page.opened, {
      setHeight,
      callTool: async (name, args) => {
        const result = await bridge.call('mcpApp.callTool', { toolCallId, name, arguments: args as Record<string, never> });
        if (!result) throw new Error(l10n.t('Keel could not run {0}', name));
        return result;
      },
    });
  }, [page, bridge, toolCallId]);

  if (page.kind === 'failed') {
    return (
      <div className="tool-card-app-note" data-testid="mcp-app-failed">
        {l10n.t('The app of this call could not be shown.')}
      </div>
    );
  }
  if (page.kind === 'loading') return null;
  return (
    <iframe
      ref={frame}
      className="tool-card-app"
      data-testid="mcp-app"
      title={l10n.t('App of {0}', app.server)}
      sandbox="allow-scripts"
      srcDoc={page.html}
      style={{ height }}
    />
  );
}

/** Speaks to the app in `el` until the returned function is called: its messages, and theme changes. */
function connectApp(el: HTMLIFrameElement, opened: Opened, to: Pick<AppSessionOptions, 'setHeight' | 'callTool'>): () => void {
  const session = new AppSession({
    ...to,
    post: (message) => el.contentWindow?.postMessage(message, '*'),
    hostContext: () => appHostContext(document, opened.tool, el.clientWidth),
    csp: opened.csp,
    input: opened.input,
    result: opened.result,
    version: typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0',
  });
  const onMessage = (event: MessageEvent) => {
    if (event.source === el.contentWindow) session.handle(event.data);
  };
  window.addEventListener('message', onMessage);
  // VS Code switches theme by the body's class: the app is told.
  let theme = appTheme(document);
  const watcher = new MutationObserver(() => {
    const now = appTheme(document);
    if (now === theme) return;
    theme = now;
    session.contextChanged({ theme: now, styles: appHostContext(document, opened.tool, el.clientWidth).styles });
  });
  watcher.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return () => {
    window.removeEventListener('message', onMessage);
    watcher.disconnect();
  };
}

/** The nonce this page's policy lets apps' scripts and styles run with (not the page's own). */
function appNonce(): string {
  return document.querySelector('meta[property="keel-app-nonce"]')?.getAttribute('content') ?? '';
}
