import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import type { SessionRecord } from './sessionRecords';

/**
 * Appends records to a log through one fd opened in append mode: each record is one line
 * written by one write call, so a crash loses at most the line being written. Nothing is
 * fsynced: the guarantee is against the process dying, not the machine.
 */
export class LogWriter {
  private fd: number | undefined;
  private needsNewline: boolean;
  private size: number;

  /** `exclusive` creates the file and fails if it exists (new sessions never clobber one). */
  constructor(
    readonly path: string,
    opts: { exclusive?: boolean; endsWithNewline?: boolean } = {},
  ) {
    this.fd = openSync(path, opts.exclusive ? 'ax' : 'a');
    this.size = fstatSync(this.fd).size;
    this.needsNewline = this.size > 0 && opts.endsWithNewline === false;
  }

  /** Bytes in the log after the last append. */
  get bytes(): number {
    return this.size;
  }

  append(record: SessionRecord): void {
    if (this.fd === undefined) throw new Error(`the session log ${this.path} is closed`);
    // A torn line from a crash must not swallow the first record written after it.
    const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
    const data = Buffer.from(line, 'utf8');
    try {
      let written = 0;
      while (written < data.length) written += writeSync(this.fd, data, written, data.length - written);
      this.size += data.length;
      this.needsNewline = false;
    } catch (err) {
      // Part of the line may be on disk: start the next one on a fresh line and re-learn the size.
      this.needsNewline = true;
      this.size = fstatSync(this.fd).size;
      throw err;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }
}
