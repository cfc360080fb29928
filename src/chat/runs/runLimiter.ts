import type { Admission } from '../../core/runQueue';

/**
 * The window's cap on runs going at once (keel.maxConcurrentRuns): a run past the cap waits
 * here, in the order it asked, and starts when another ends. The cap is read on every
 * admission, so a changed setting applies to the next run.
 */
export class RunLimiter {
  private active = 0;
  private readonly waiting: { admit(): void; signal: AbortSignal }[] = [];

  constructor(private readonly cap: () => number) {}

  /** Runs holding a slot now. */
  get running(): number {
    return this.active;
  }

  /** Whether a run asking now would start at once. */
  hasRoom(): boolean {
    return this.waiting.length === 0 && this.active < this.limit();
  }

  /**
   * The slot's release when there is room now; else a promise of it once the run may start,
   * or of undefined when `signal` aborts first (the run was stopped while it waited).
   */
  acquire(signal: AbortSignal): Admission {
    if (signal.aborted) return undefined;
    if (this.hasRoom()) return this.take();
    return new Promise((resolve) => {
      const entry = {
        signal,
        admit: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.take());
        },
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
        this.pump();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** The cap may have risen (the setting changed): runs that fit now start. */
  recheck(): void {
    this.pump();
  }

  private take(): () => void {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.active < this.limit()) this.waiting.shift()!.admit();
  }

  private limit(): number {
    const cap = Math.floor(this.cap());
    return Number.isFinite(cap) && cap >= 1 ? cap : 1;
  }
}
