/**
 * Runs `fn` at the first signal of a burst, then at most once per `windowMs` while signals
 * keep coming, and once after the burst if any came in since the last run. So a save is
 * acted on at once, and `npm install` costs a handful of runs rather than thousands.
 */
export class BurstThrottle {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;

  constructor(
    private readonly fn: () => void,
    private readonly windowMs: number,
  ) {}

  signal(): void {
    if (this.timer !== undefined) {
      this.pending = true;
      return;
    }
    this.fn();
    this.timer = setTimeout(() => this.windowEnded(), this.windowMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = false;
  }

  private windowEnded(): void {
    this.timer = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.signal();
  }
}
