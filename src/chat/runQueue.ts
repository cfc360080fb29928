/** One queued piece of work: a person's message, a plan action, a compaction. */
export interface QueuedRun {
  /** Does the work; `signal` aborts when the person stops it. Never rejects. */
  run(signal: AbortSignal): Promise<void>;
  /** Stop dropped it before its turn. */
  dropped(): void;
}

export interface RunQueueHooks {
  /** A run ended, whatever its outcome (the approvals it left are withdrawn, the view is flushed). */
  afterRun(): void;
  /** The last run ended and nothing waits. */
  idle(): void;
}

/**
 * The conversation's one queue: runs one after another, each with the same life cycle (its own
 * abort signal, the tear-down after it), whether it sends a message or compacts the history.
 */
export class RunQueue<T extends QueuedRun> {
  private readonly waiting: T[] = [];
  private running = false;
  private abort: AbortController | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly hooks: RunQueueHooks;

  constructor(hooks: RunQueueHooks) {
    this.hooks = hooks;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Runs waiting behind the current one. */
  get length(): number {
    return this.waiting.length;
  }

  /** Whether a run added now would wait for another. */
  get busy(): boolean {
    return this.running || this.waiting.length > 0;
  }

  some(test: (item: T) => boolean): boolean {
    return this.waiting.some(test);
  }

  /** Adds a run; it starts with `start()`, so the caller can show it as queued first. */
  add(item: T): void {
    this.waiting.push(item);
  }

  /** Starts the waiting runs unless one is running already. */
  start(): void {
    void this.pump();
  }

  /** Drops the waiting runs and aborts the current one; whether there was anything to stop. */
  cancel(): boolean {
    const dropped = this.waiting.splice(0);
    for (const item of dropped) item.dropped();
    const wasRunning = this.running;
    this.abort?.abort();
    return wasRunning || dropped.length > 0;
  }

  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.waiting.shift(); item; item = this.waiting.shift()) await this.runOne(item);
    } finally {
      this.running = false;
      this.hooks.idle();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
    if (this.waiting.length > 0) void this.pump();
  }

  private async runOne(item: T): Promise<void> {
    const controller = new AbortController();
    this.abort = controller;
    try {
      await item.run(controller.signal);
    } finally {
      if (this.abort === controller) this.abort = undefined;
      this.hooks.afterRun();
    }
  }
}
