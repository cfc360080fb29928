import type { HostWebview } from '../protocol/postMessageTransport';

/**
 * Holds what a new chat page posts while the host side is still being loaded (the bridge
 * is imported on first use). Listening starts at once, so the page's `ready` cannot slip
 * past; `release()`, called once the bridge is wired, hands over what arrived, in order.
 */
export class EarlyMessageBuffer implements HostWebview {
  private readonly inner: HostWebview;
  private readonly listeners = new Set<(message: unknown) => void>();
  private held: unknown[] | undefined = [];
  private readonly subscription: { dispose(): void };

  constructor(inner: HostWebview) {
    this.inner = inner;
    this.subscription = inner.onDidReceiveMessage((message) => {
      if (this.held) this.held.push(message);
      else this.deliver(message);
    });
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
    this.listeners.clear();
    this.subscription.dispose();
  }

  private deliver(message: unknown): void {
    for (const listener of [...this.listeners]) listener(message);
  }
}
