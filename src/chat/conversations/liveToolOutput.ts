import { MAX_LIVE_OUTPUT_CHARS } from '../../protocol/limits';
import { BurstThrottle } from './burstThrottle';

/** How often a running tool's output is sent to the view at most. */
export const liveOutputWindowMs = 100;

interface Live {
  tail: string;
  throttle: BurstThrottle;
}

/**
 * The output of running tools as the view shows it: the tail of what each printed so far,
 * passed on at once when it starts printing and then at most once per window, so a chatty
 * command costs a few updates a second rather than one per line.
 */
export class LiveToolOutput {
  private readonly calls = new Map<string, Live>();

  constructor(
    private readonly show: (toolCallId: string, output: string) => void,
    private readonly windowMs = liveOutputWindowMs,
  ) {}

  append(toolCallId: string, text: string): void {
    let live = this.calls.get(toolCallId);
    if (!live) {
      const created: Live = { tail: '', throttle: new BurstThrottle(() => this.show(toolCallId, created.tail), this.windowMs) };
      live = created;
      this.calls.set(toolCallId, live);
    }
    const tail = live.tail + text;
    live.tail = tail.length > MAX_LIVE_OUTPUT_CHARS ? tail.slice(tail.length - MAX_LIVE_OUTPUT_CHARS) : tail;
    live.throttle.signal();
  }

  /** The call finished: nothing more is sent for it. */
  end(toolCallId: string): void {
    this.calls.get(toolCallId)?.throttle.dispose();
    this.calls.delete(toolCallId);
  }

  clear(): void {
    for (const live of this.calls.values()) live.throttle.dispose();
    this.calls.clear();
  }
}
