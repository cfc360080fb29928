/**
 * The timeout of one MCP tool call: it fires `timeoutMs` after the call started or last showed
 * progress, never later than `capMs` in all, and it stands still while the person answers a
 * question the server asked meanwhile (a form takes longer than a tool timeout).
 */
export class CallClock {
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;
  private readonly started = Date.now();

  constructor(
    private readonly timeoutMs: number,
    private readonly capMs: number,
    private readonly expire: () => void,
  ) {
    this.arm();
  }

  /** The server reported progress: the timeout starts over (within the cap). */
  progress(): void {
    if (this.holds === 0) this.arm();
  }

  /** Stops the clock until the returned function is called (a question is being answered). */
  hold(): () => void {
    this.holds++;
    this.clear();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0) this.arm();
    };
  }

  stop(): void {
    this.clear();
  }

  private arm(): void {
    this.clear();
    const left = Math.min(this.timeoutMs, this.started + this.capMs - Date.now());
    this.timer = setTimeout(this.expire, Math.max(0, left));
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
