import type { HostWebview } from '../../protocol/postMessageTransport';

/**
 * What the chat page's start script posts once the page is on screen (webviewHtml.ts), before
 * its UI script loads: not a frame of the bus, so it goes no further than this buffer.
 */
export const PAGE_SHOWN = { keelPage: 'shown' } as const;

function isPageShown(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { keelPage?: unknown }).keelPage === PAGE_SHOWN.keelPage;
}

/**
 * Holds what a new chat page posts while the host side is still being loaded (the bridge
 * is imported on first use). Listening starts at once, so the page's `ready` cannot slip
 * past; `release()`, called once the bridge is wired, hands over what arrived, in order.
 * `onPageSpoke` tells when the page first posted anything (PAGE_SHOWN or a frame).
 */
export class EarlyMessageBuffer implements HostWebview {
  private readonly inner: HostWebview;
  private readonly listeners = new Set<(message: unknown) => void>();
  private held: unknown[] | undefined = [];
  private readonly subscription: { dispose(): void };
  private spoke = false;
  private spokeListener: (() => void) | undefined;

  constructor(inner: HostWebview) {
    this.inner = inner;
    this.subscription = inner.onDidReceiveMessage((message) => {
      if (!this.spoke) {
        this.spoke = true;
        this.spokeListener?.();
        this.spokeListener = undefined;
      }
      if (isPageShown(message)) return;
      if (this.held) this.held.push(message);
      else this.deliver(message);
    });
  }

  /** Runs `listener` once, when the page first posts (at once if it already did). */
  onPageSpoke(listener: () => void): void {
    if (this.spoke) listener();
    else this.spokeListener = listener;
  }

  postMessage(message: unknown): PromiseLike<boolean> | boolean {
    return this.inner.postMessage(message);
  }

  onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Delivers the held messages and passes everything after straight through. */
  release(): void {
    const held = this.held;
    this.held = undefined;
    for (const message of held ?? []) this.deliver(message);
  }

  dispose(): void {
    this.held = undefined;
    this.spokeListener = undefined;
    this.listeners.clear();
    this.subscription.dispose();
  }

  private deliver(message: unknown): void {
    for (const listener of [...this.listeners]) listener(message);
  }
}
