import type { Transport } from './transport';

/**
 * Two connected in-process ends, for tests and the CLI. Delivery is asynchronous and
 * ordered, and each frame is JSON round-tripped, like a webview's postMessage: a frame
 * that cannot survive serialisation fails here rather than only in VS Code.
 */
export function createPairTransport(): [Transport, Transport] {
  const listeners: [Set<(message: unknown) => void>, Set<(message: unknown) => void>] = [
    new Set(),
    new Set(),
  ];

  const end = (own: 0 | 1): Transport => {
    const other = own === 0 ? 1 : 0;
    return {
      send(frame) {
        const copy: unknown = JSON.parse(JSON.stringify(frame));
        // Microtasks run FIFO, so order is kept; fake timers in tests leave them alone.
        queueMicrotask(() => {
          for (const listener of [...listeners[other]]) listener(copy);
        });
      },
      onMessage(listener) {
        listeners[own].add(listener);
        return () => {
          listeners[own].delete(listener);
        };
      },
    };
  };

  return [end(0), end(1)];
}
