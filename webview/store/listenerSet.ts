/** A set of change listeners; `subscribe` has the shape useSyncExternalStore expects. */
export class ListenerSet {
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  get size(): number {
    return this.listeners.size;
  }
}
