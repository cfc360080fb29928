import * as vscode from 'vscode';
import { createPairTransport } from '../../protocol/pairTransport';
import type { Transport } from '../../protocol/transport';

/**
 * A chat page without a browser, for the extension's own integration tests: the real
 * provider resolves a WebviewView whose webview posts into an in-process transport, and the
 * test speaks the protocol on the other end exactly as the webview's uiBridge does.
 */
export interface HeadlessChatPage {
  /** The page's end of the bus (what `acquireVsCodeApi().postMessage` and `window` give the UI). */
  readonly transport: Transport;
  readonly visible: boolean;
  /** Hidden as when the sidebar is collapsed: VS Code tears the page down, posts are refused. */
  setVisible(visible: boolean): void;
  /** VS Code disposed the view. */
  dispose(): void;
}

/** A `vscode.Webview` whose page is the other end of a pair transport. */
class HeadlessWebview implements vscode.Webview {
  options: vscode.WebviewOptions = {};
  html = '';
  readonly cspSource = 'vscode-webview://headless';
  private readonly received = new vscode.EventEmitter<unknown>();
  readonly onDidReceiveMessage: vscode.Event<unknown> = this.received.event;
  private readonly stopListening: () => void;

  constructor(
    private readonly hostEnd: Transport,
    private readonly isVisible: () => boolean,
  ) {
    this.stopListening = hostEnd.onMessage((message) => this.received.fire(message));
  }

  postMessage(message: unknown): Thenable<boolean> {
    // Like VS Code: a hidden view's page is gone and the message is not delivered.
    if (!this.isVisible()) return Promise.resolve(false);
    this.hostEnd.send(message);
    return Promise.resolve(true);
  }

  asWebviewUri(localResource: vscode.Uri): vscode.Uri {
    return localResource;
  }

  dispose(): void {
    this.stopListening();
    this.received.dispose();
  }
}

class HeadlessWebviewView implements vscode.WebviewView {
  readonly viewType: string;
  readonly webview: HeadlessWebview;
  title?: string;
  description?: string;
  badge?: vscode.ViewBadge | undefined;
  private shown = true;
  private readonly disposed = new vscode.EventEmitter<void>();
  private readonly visibility = new vscode.EventEmitter<void>();
  readonly onDidDispose: vscode.Event<void> = this.disposed.event;
  readonly onDidChangeVisibility: vscode.Event<void> = this.visibility.event;

  constructor(viewType: string, hostEnd: Transport) {
    this.viewType = viewType;
    this.webview = new HeadlessWebview(hostEnd, () => this.shown);
  }

  get visible(): boolean {
    return this.shown;
  }

  show(): void {
    this.setVisible(true);
  }

  setVisible(visible: boolean): void {
    if (visible === this.shown) return;
    this.shown = visible;
    this.visibility.fire();
  }

  dispose(): void {
    this.disposed.fire();
    this.webview.dispose();
    this.disposed.dispose();
    this.visibility.dispose();
  }
}

/** Resolves the chat view provider with a headless view of `viewType`; the returned page is the test's side. */
export function openHeadlessChatPage(provider: { resolveWebviewView(view: vscode.WebviewView): void }, viewType: string): HeadlessChatPage {
  const [hostEnd, pageEnd] = createPairTransport();
  const view = new HeadlessWebviewView(viewType, hostEnd);
  provider.resolveWebviewView(view);
  return {
    transport: pageEnd,
    get visible() {
      return view.visible;
    },
    setVisible: (visible) => view.setVisible(visible),
    dispose: () => view.dispose(),
  };
}
