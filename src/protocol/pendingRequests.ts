import type { BusError } from './busError';

export interface PendingRequest {
  method: string;
  resolve(result: unknown): void;
  reject(error: BusError): void;
  /** Clears the timeout and abort listener. */
  cleanup(): void;
}

/** Late replies to requests we gave up on are expected; remember a few so they are not warned about. */
const ABANDONED_MEMORY = 256;

/** The caller's side of the bus: requests awaiting a response, by id. */
export class PendingRequests {
  private readonly pending = new Map<string, PendingRequest>();
  private readonly abandoned = new Set<string>();

  add(id: string, request: PendingRequest): void {
    this.pending.set(id, request);
  }

  /** Removes and cleans up the request; undefined if it already settled. */
  settle(id: string): PendingRequest | undefined {
    const request = this.pending.get(id);
    if (!request) return undefined;
    this.pending.delete(id);
    request.cleanup();
    return request;
  }

  /** Settles a request the caller gave up on (abort, timeout) and remembers its id. */
  abandon(id: string): PendingRequest | undefined {
    const request = this.settle(id);
    if (!request) return undefined;
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_MEMORY) {
      const oldest = this.abandoned.values().next();
      if (!oldest.done) this.abandoned.delete(oldest.value);
    }
    return request;
  }

  /** True once per abandoned id: its late reply is expected. */
  forgetAbandoned(id: string): boolean {
    return this.abandoned.delete(id);
  }

  rejectAll(makeError: (request: PendingRequest) => BusError): void {
    for (const id of [...this.pending.keys()]) {
      const request = this.settle(id);
      if (request) request.reject(makeError(request));
    }
  }
}
