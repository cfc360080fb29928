/** The last N lines of something (a server's stderr, its log), oldest first. */
export class LineLog {
  private buf: string[] = [];
  constructor(private readonly max: number) {}

  add(line: string): void {
    this.buf.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.buf.length > this.max) this.buf.splice(0, this.buf.length - this.max);
  }

  lines(): string[] {
    return [...this.buf];
  }

  size(): number {
    return this.buf.length;
  }

  clear(): void {
    this.buf = [];
  }
}
