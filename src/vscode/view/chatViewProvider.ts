import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { HostWebview } from '../../protocol/postMessageTransport';
import { EarlyMessageBuffer } from '../../chat/conversations/earlyMessageBuffer';
import { chatPageHtml, missingUiHtml, newNonce } from './webviewHtml';
import { webviewLocale } from './webviewLocale';

/**
 * Where the chat UI's files are, relative to the extension root (codicons are inside the
 * stylesheet). The script is required; a stylesheet the build did not produce is left out.
 */
export const CHAT_ASSETS = {
  script: ['dist', 'webview.js'],
  styles: [['dist', 'webview.css']],
} as const;

export type ConnectView = (view: vscode.WebviewView, webview: HostWebview) => Promise<vscode.Disposable>;

/**
 * The `keel.chat` webview view. Every page VS Code creates (first show, re-show after the
 * view was disposed, a reload) gets fresh HTML with a new nonce and a fresh bus; the host
 * side behind it is loaded on first use, once the page is on screen (it says so).
 */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connect: ConnectView,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const { webview } = view;
    // Listening starts before the page exists, so its `ready` is never missed.
    const early = new EarlyMessageBuffer(webview);
    // HTML first: options set on an empty webview render an empty page, which VS Code reports as lacking a CSP.
    webview.html = this.html(webview);
    webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };

    let connection: vscode.Disposable | undefined;
    let disposed = false;
    const onDispose = view.onDidDispose(() => {
      disposed = true;
      onDispose.dispose();
      connection?.dispose();
      early.dispose();
    });
    // The host side (a megabyte of script to load, the core to build) waits until the page has
    // posted: loading it at once would hold up the page's own first paint on a busy machine.
    early.onPageSpoke(() => void this.connect(view, early).then(
      (connected) => {
        if (disposed) {
          connected.dispose();
          return;
        }
        connection = connected;
        early.release();
      },
      (err: unknown) => {
        this.log.error(`chat view: starting Keel failed: ${errorMessage(err)}`);
        const showLog = vscode.l10n.t('Show Log');
        void vscode.window.showErrorMessage(vscode.l10n.t('Keel could not start: {0}', errorMessage(err)), showLog).then((choice) => {
          if (choice === showLog) this.log.show();
        });
      },
    ));
  }

  private html(webview: vscode.Webview): string {
    const nonce = newNonce();
    const file = (parts: readonly string[]): vscode.Uri => vscode.Uri.joinPath(this.extensionUri, ...parts);
    const script = file(CHAT_ASSETS.script);
    if (!existsSync(script.fsPath)) {
      this.log.error(`chat view: ${script.fsPath} is missing; the chat UI was not built`);
      return missingUiHtml(webview.cspSource, nonce, [CHAT_ASSETS.script.join('/')]);
    }
    const styles = CHAT_ASSETS.styles.map(file).filter((uri) => existsSync(uri.fsPath));
    return chatPageHtml({
      cspSource: webview.cspSource,
      nonce,
      appNonce: newNonce(),
      script: webview.asWebviewUri(script).toString(),
      styles: styles.map((uri) => webview.asWebviewUri(uri).toString()),
      locale: webviewLocale(this.extensionUri, (message) => this.log.error(message)),
    });
  }
}
