/** Longest a written piece waits before it reaches the terminal: far below what a reader notices. */
const FLUSH_AFTER_MS = 4;
/** A batch this large goes out at once. */
const FLUSH_AT_CHARS = 64 * 1024;

export interface BatchedOutput {
  write(s: string): void;
  /** Writes what is buffered now (before stderr, before exit, on errors). */
  flush(): void;
}

/**
 * stdout in batches: a streamed answer arrives as thousands of small deltas, and one write
 * (a syscall) per delta cost the CLI more CPU than parsing them. Pieces gather for a few ms
 * and go out together, in order.
 */
export function batchedOutput(sink: (s: string) => void): BatchedOutput {
  let buffer = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (buffer === '') return;
    const out = buffer;
    buffer = '';
    sink(out);
  };
  return {
    write(s) {
      buffer += s;
      if (buffer.length >= FLUSH_AT_CHARS) flush();
      else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
    },
    flush,
  };
}
