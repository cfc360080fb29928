import { readFile, stat } from 'node:fs/promises';
import { isGone } from '../goneErrors';
import { sha256 } from '../sha256';

/**
 * Timestamps written within this window of the moment we looked can hide a later change
 * (file systems store mtime coarsely: a jiffy on Linux, up to 2 s on FAT), so a matching
 * mtime and size is only trusted once the content has been compared.
 */
const racyWindowMs = 2_000;
/** Recently seen text kept for cheap comparisons, instead of hashing; beyond this, hashes. */
const keptTextBudget = 32 * 1024 * 1024;

interface Seen {
  mtimeMs: number;
  size: number;
  /** When the state was taken; decides whether an equal mtime can be trusted. */
  recordedAt: number;
  /** sha256 of the bytes, or undefined while `text` is kept instead. */
  hash?: string;
  text?: string;
}

export class StaleFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaleFileError';
  }
}

/**
 * Remembers, per real path, the version of each file the agent last saw (by reading it or
 * by writing it), so edits and overwrites can refuse to clobber changes it never saw.
 */
export class FileReadTracker {
  private readonly seen = new Map<string, Seen>();
  private keptBytes = 0;

  /** Records that the agent saw `content` (what `read` returned, or what was just written). */
  async record(absPath: string, content: Buffer | string): Promise<void> {
    const st = await stat(absPath).catch((err: unknown) => {
      if (isGone(err)) return undefined;
      throw err;
    });
    // Gone by the time it is looked at (a command moved its folder just after the write, which
    // stands): no version is known, so the next edit asks for a fresh read.
    if (!st) return this.drop(absPath);
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
    if (st.size !== size) {
      // The file changed between reading and stat (or the host rewrote it): record what is there.
      const current = await readFile(absPath);
      const after = await stat(absPath);
      this.set(absPath, { mtimeMs: after.mtimeMs, size: after.size, recordedAt: Date.now(), hash: sha256(current) });
      return;
    }
    const entry: Seen = { mtimeMs: st.mtimeMs, size: st.size, recordedAt: Date.now() };
    if (typeof content === 'string') entry.text = content;
    else entry.hash = sha256(content);
    this.set(absPath, entry);
  }

  has(absPath: string): boolean {
    return this.seen.has(absPath);
  }

  forget(absPath: string): void {
    this.drop(absPath);
  }

  /**
   * Throws StaleFileError unless the file is exactly as the agent last saw it.
   * `current` is the file's content when the caller has just read it (saves a second read).
   */
  async assertFresh(absPath: string, current?: Buffer | string): Promise<void> {
    const entry = this.seen.get(absPath);
    if (!entry) {
      throw new StaleFileError(`${absPath} has not been read in this session. Read it first, then retry.`);
    }
    const st = await stat(absPath);
    const changed = new StaleFileError(`${absPath} has changed on disk since it was last read. Read it again first, then retry.`);
    if (st.size !== entry.size) throw changed;
    const sameTime = st.mtimeMs === entry.mtimeMs;
    if (sameTime && entry.mtimeMs < entry.recordedAt - racyWindowMs) return;
    const content = current ?? (await readFile(absPath));
    if (!this.matches(entry, content)) throw changed;
    // Verified now: later changes will show as a new mtime once outside the racy window.
    entry.mtimeMs = st.mtimeMs;
    entry.recordedAt = Date.now();
  }

  private matches(entry: Seen, content: Buffer | string): boolean {
    if (entry.text !== undefined) {
      return typeof content === 'string' ? content === entry.text : content.equals(Buffer.from(entry.text));
    }
    return sha256(content) === entry.hash;
  }

  private set(absPath: string, entry: Seen): void {
    this.drop(absPath);
    this.seen.set(absPath, entry);
    if (entry.text !== undefined) {
      this.keptBytes += entry.size;
      this.enforceBudget();
    }
  }

  private drop(absPath: string): void {
    const old = this.seen.get(absPath);
    if (old?.text !== undefined) this.keptBytes -= old.size;
    this.seen.delete(absPath);
  }

  /** Oldest kept texts are turned into hashes first (Map iteration is insertion order). */
  private enforceBudget(): void {
    for (const entry of this.seen.values()) {
      if (this.keptBytes <= keptTextBudget) return;
      if (entry.text === undefined) continue;
      entry.hash = sha256(entry.text);
      entry.text = undefined;
      this.keptBytes -= entry.size;
    }
  }
}
