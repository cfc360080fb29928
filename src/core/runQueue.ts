/**
 * The turn a queued run holds while it runs. A Project call made with it (`RunOptions.turn`)
 * goes on in that turn instead of waiting behind it; `signal` aborts when the person stops it.
 */
export interface RunTurn {
  readonly signal: AbortSignal;
}

/** One queued piece of work: a person's message, a plan action, a compaction. */
export interface QueuedRun {
  /** Does the work in its turn. Never rejects. */
  run(turn: RunTurn): Promise<void>;
  /** Stop dropped it before its turn. */
  dropped(): void;
}

/** A run slot's release at once, or the wait for one (undefined: stopped before it got one). */
export type Admission = (() => void) | undefined | Promise<(() => void) | undefined>;

export interface RunQueueHooks {
  /** A run ended, whatever its outcome (the approvals it left are withdrawn, the view is flushed). */
  afterRun?(): void;
  /** The last run ended and nothing waits. */
  idle?(): void;
  /**
   * Waits for the window to have room for one more run (see RunLimiter); resolves with the
   * slot's release, or undefined when the run was stopped while it waited.
   */
  admit?(signal: AbortSignal): Admission;
  /** The run at the head started waiting for room, or stopped waiting. */
  onWaitingForTurn?(waiting: boolean): void;
}

/**
 * A conversation's one queue: runs one after another, each with the same life cycle (its own
 * abort signal, the tear-down after it), whether it sends a message or compacts the history.
 * Its ConversationRuntime queues the Project's runs in it. The chat makes it with its hooks and
 * lends it to each runtime the conversation opens (a new chat's session starts with its first
 * run, so the queue outlives it), and queues the person's messages in it as runs whose turn the
 * Project's call then holds; the CLI and tests leave it to the runtime.
 */
export class RunQueue<T extends QueuedRun> {
  private readonly waiting: T[] = [];
  private running = false;
  private turn: RunTurn | undefined;
  private abort: AbortController | undefined;
  private idleWaiters: (() => void)[] = [];
  private waitingTurn = false;
  private readonly hooks: RunQueueHooks;

  constructor(hooks: RunQueueHooks = {}) {
    this.hooks = hooks;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The run at the head waits for another conversation's run to end (the window's cap). */
  get waitingForTurn(): boolean {
    return this.waitingTurn;
  }

  /** Runs waiting behind the current one. */
  get length(): number {
    return this.waiting.length;
  }

  /** Whether a run added now would wait for another. */
  get busy(): boolean {
    return this.running || this.waiting.length > 0;
  }

  /** Whether `turn` is the turn of the run going on now. */
  holds(turn: RunTurn): boolean {
    return this.turn === turn;
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
      this.hooks.idle?.();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
    if (this.waiting.length > 0) void this.pump();
  }

  private async runOne(item: T): Promise<void> {
    const controller = new AbortController();
    this.abort = controller;
    let release: (() => void) | undefined;
    try {
      if (this.hooks.admit) {
        const admission = this.hooks.admit(controller.signal);
        if (admission instanceof Promise) {
          this.setWaitingTurn(true);
          try {
            release = await admission;
          } finally {
            this.setWaitingTurn(false);
          }
        } else release = admission;
        if (!release) {
          item.dropped();
          return;
        }
      }
      const turn: RunTurn = { signal: controller.signal };
      this.turn = turn;
      await item.run(turn);
    } finally {
      release?.();
      this.turn = undefined;
      if (this.abort === controller) this.abort = undefined;
      this.hooks.afterRun?.();
    }
  }

  private setWaitingTurn(waiting: boolean): void {
    if (this.waitingTurn === waiting) return;
    this.waitingTurn = waiting;
    this.hooks.onWaitingForTurn?.(waiting);
  }
}
