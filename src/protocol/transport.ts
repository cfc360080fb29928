/**
 * A duplex channel of JSON-serialisable frames. The bus validates everything it receives,
 * so a transport only moves messages; it must deliver them in order.
 */
export interface Transport {
  send(frame: unknown): void;
  /** Returns an unsubscribe function. */
  onMessage(listener: (message: unknown) => void): () => void;
}
