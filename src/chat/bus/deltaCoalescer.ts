import type { HostBus } from '../../protocol/buses';
import type { HostSide, WebviewSide } from '../../protocol/catalogue';
import type { RequestOptions } from '../../protocol/busTypes';
import type { EventIn, EventOf, MethodOf, ParamsIn, ResultOut } from '../../protocol/side';

type DeltaEvent = 'textDelta' | 'reasoningDelta';

interface PendingChunk {
  event: DeltaEvent;
  messageId: string;
  pieces: string[];
}

export interface DeltaCoalescerOptions {
  /** How long deltas may wait to be merged; about one frame or two. */
  intervalMs?: number;
}

export const DEFAULT_COALESCE_MS = 30;

/**
 * The host's outbox to the webview: merges text and reasoning deltas so a fast model
 * does not flood the webview, and keeps order. Only consecutive deltas of the same kind
 * for the same message are merged, so the part structure the webview builds (see
 * appendDelta) is the same as without coalescing. Any other event, or a request, first
 * flushes what is pending, so it never overtakes text streamed before it.
 */
export class DeltaCoalescer {
  private readonly bus: Pick<HostBus, 'emit' | 'request'>;
  private readonly intervalMs: number;
  private chunks: PendingChunk[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(bus: Pick<HostBus, 'emit' | 'request'>, options: DeltaCoalescerOptions = {}) {
    this.bus = bus;
    this.intervalMs = options.intervalMs ?? DEFAULT_COALESCE_MS;
  }

  textDelta(messageId: string, delta: string): void {
    this.push('textDelta', messageId, delta);
  }

  reasoningDelta(messageId: string, delta: string): void {
    this.push('reasoningDelta', messageId, delta);
  }

  /** Delta events are buffered; anything else flushes the buffer and is sent at once. */
  emit<E extends EventOf<HostSide>>(event: E, data: EventIn<HostSide, E>): void {
    if (isDeltaEvent(event)) {
      const delta = data as EventIn<HostSide, DeltaEvent>;
      this.push(event, delta.messageId, delta.delta);
      return;
    }
    this.flush();
    this.bus.emit(event, data);
  }

  request<M extends MethodOf<WebviewSide>>(
    method: M,
    params: ParamsIn<WebviewSide, M>,
    options?: RequestOptions,
  ): Promise<ResultOut<WebviewSide, M>> {
    this.flush();
    return this.bus.request(method, params, options);
  }

  /** Sends everything pending now; call at the end of a stream. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const chunks = this.chunks;
    this.chunks = [];
    for (const chunk of chunks) {
      this.bus.emit(chunk.event, { messageId: chunk.messageId, delta: chunk.pieces.join('') });
    }
  }

  /** Flushes; nothing is lost on the way out. */
  dispose(): void {
    this.flush();
  }

  private push(event: DeltaEvent, messageId: string, delta: string): void {
    if (delta.length === 0) return;
    const last = this.chunks.at(-1);
    if (last && last.event === event && last.messageId === messageId) {
      last.pieces.push(delta);
    } else {
      this.chunks.push({ event, messageId, pieces: [delta] });
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.intervalMs);
  }
}

function isDeltaEvent(event: string): event is DeltaEvent {
  return event === 'textDelta' || event === 'reasoningDelta';
}
