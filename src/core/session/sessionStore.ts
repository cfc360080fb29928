import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorMessage } from '../errors';
import { sessionsDir, workspaceKey } from '../paths';
import type { WorkspaceIdentity } from '../paths';
import { readSessionLog } from './logReader';
import { LogWriter } from './logWriter';
import { Session } from './session';
import { SessionLockedError, SessionNotFoundError, SessionReadOnlyError } from './sessionErrors';
import { isValidSessionId, newSessionId } from './sessionIds';
import { LogTextCache, logMentions } from './sessionSearch';
import { describeLockOwner, SessionLock } from './sessionLock';
import { SESSION_LOG_VERSION } from './sessionRecords';
import type { SessionHeaderRecord } from './sessionRecords';
import { SessionState } from './sessionState';
import { readSummary, summarize, summaryPath, writeSummary } from './sessionSummary';
import type { SessionSummary } from './sessionSummary';

export interface SessionStoreOptions {
  /** KEEL_HOME (see keelHome()). */
  home: string;
  workspace: WorkspaceIdentity;
  /** Problems that lose nothing (a listing cache that could not be written); default: process warning. */
  onWarning?: (message: string) => void;
}

export interface OpenOptions {
  /** Read without taking the lock (viewing, exporting). */
  readOnly?: boolean;
  /** Take the lock even from a live holder (the person said the other window is gone). */
  force?: boolean;
}

export interface ListOptions {
  limit?: number;
  offset?: number;
  /** Case-insensitive text that the title or a message's text must contain. */
  query?: string;
}

/**
 * The sessions of one workspace, in `$KEEL_HOME/projects/<workspace-key>/sessions/`:
 * `<id>.jsonl` (the log), `<id>.meta.json` (listing summary), `<id>.lock` (who is writing),
 * `<id>.blobs/` (file contents kept by the change journal, by sha256), `<id>.plans/` (plans as
 * editable Markdown files), `<id>.snapshots/` (Keel's private git stores recording what commands changed).
 */
export class SessionStore {
  readonly workspace: WorkspaceIdentity;
  readonly key: string;
  readonly dir: string;
  private readonly onWarning: (message: string) => void;
  /** Log text kept between searches (a person narrows a query key by key). */
  private readonly searchCache = new LogTextCache();
  /** Summaries already read, by log; valid while the log keeps that size and time (logs only grow). */
  private readonly summaries = new Map<string, { size: number; mtimeMs: number; summary: SessionSummary }>();

  constructor(opts: SessionStoreOptions) {
    this.workspace = opts.workspace.workspaceFile
      ? { root: resolve(opts.workspace.root), workspaceFile: resolve(opts.workspace.workspaceFile) }
      : { root: resolve(opts.workspace.root) };
    this.key = workspaceKey(this.workspace);
    this.dir = sessionsDir(opts.home, this.key);
    this.onWarning = opts.onWarning ?? ((message) => process.emitWarning(message, 'KeelSessionWarning'));
  }

  logPath(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  /** A new session, locked for writing by this process, its header already on disk. */
  create(opts: { cwd?: string } = {}): Session {
    mkdirSync(this.dir, { recursive: true });
    // Ids carry 32 random bits per second, so a clash is a freak; a few tries settle it.
    for (let tries = 0; tries < 5; tries++) {
      const id = newSessionId();
      const path = this.logPath(id);
      if (existsSync(path)) continue;
      const attempt = SessionLock.acquire(this.lockPath(id));
      if (!attempt.acquired) continue;
      let writer: LogWriter | undefined;
      try {
        writer = new LogWriter(path, { exclusive: true });
        const header: SessionHeaderRecord = {
          type: 'session',
          ts: new Date().toISOString(),
          version: SESSION_LOG_VERSION,
          id,
          workspaceRoot: this.workspace.root,
          workspaceKey: this.key,
          cwd: resolve(opts.cwd ?? this.workspace.root),
        };
        if (this.workspace.workspaceFile) header.workspaceFile = this.workspace.workspaceFile;
        writer.append(header);
        const state = new SessionState();
        state.apply(header);
        const session = new Session({ id, path, state, warnings: [], writer, lock: attempt.lock, onWarning: this.onWarning });
        this.cacheSummary(path, session.summary(), writer.bytes);
        return session;
      } catch (err) {
        // A log without its header would list as a broken session: take it back out.
        if (writer) {
          writer.close();
          rmSync(path, { force: true });
        }
        attempt.lock.release();
        throw err;
      }
    }
    throw new Error(`could not create a session in ${this.dir}: every new id was taken`);
  }

  /**
   * Loads a session (one pass over its log). Unless `readOnly`, takes its lock; when another
   * live process holds it, the session comes back read-only with `readOnlyReason` saying who.
   */
  open(id: string, opts: OpenOptions = {}): Session {
    const path = this.existingLog(id);
    let lock: SessionLock | undefined;
    let readOnlyReason: string | undefined;
    if (!opts.readOnly) {
      const attempt = SessionLock.acquire(this.lockPath(id), opts.force ? { force: true } : {});
      if (attempt.acquired) lock = attempt.lock;
      else readOnlyReason = describeLockOwner(attempt.owner);
    }
    try {
      const log = readSessionLog(path);
      const state = new SessionState();
      const found = [...log.warnings];
      for (const { record, line } of log.records) {
        const message = state.apply(record, line);
        if (message) found.push({ line, message });
      }
      const warnings = found.sort((a, b) => a.line - b.line).map((w) => w.message);
      if (!state.header) warnings.unshift('the session header is missing; the log was read without it');
      else if (state.header.version > SESSION_LOG_VERSION) {
        warnings.unshift(`the log was written by a newer Keel (format ${state.header.version}); records it does not know were skipped`);
      }
      const writer = lock ? new LogWriter(path, { endsWithNewline: log.endsWithNewline }) : undefined;
      const init = { id, path, state, warnings, onWarning: this.onWarning };
      if (writer && lock) {
        const session = new Session({ ...init, writer, lock });
        // We hold the lock, so a run still open in the log belongs to a process that is gone.
        try {
          session.recoverInterruptedRun();
        } catch (err) {
          session.close();
          throw err;
        }
        return session;
      }
      return new Session(readOnlyReason ? { ...init, readOnlyReason } : init);
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  exists(id: string): boolean {
    return isValidSessionId(id) && existsSync(this.logPath(id));
  }

  /**
   * Newest activity first. Reads each session's small summary file; only a session whose
   * summary is missing or out of date with its log is parsed in full (and its summary rewritten).
   */
  list(opts: ListOptions = {}): SessionSummary[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const all: SessionSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const id = name.slice(0, -'.jsonl'.length);
      if (!isValidSessionId(id)) continue;
      const summary = this.summaryOf(id);
      if (summary) all.push(summary);
    }
    const query = opts.query?.trim().toLowerCase();
    // Titles first: the message text of a log is read only when its title does not match.
    const matching = query
      ? all.filter((s) => s.title.toLowerCase().includes(query) || logMentions(this.logPath(s.id), query, this.searchCache))
      : all;
    matching.sort((a, b) => compareDesc(a.updatedAt, b.updatedAt) || compareDesc(a.id, b.id));
    const offset = Math.max(0, opts.offset ?? 0);
    return matching.slice(offset, opts.limit === undefined ? undefined : offset + Math.max(0, opts.limit));
  }

  /** Sets a session's title (an empty one goes back to the first prompt). Refused while another process writes it. */
  rename(id: string, title: string): SessionSummary {
    const session = this.open(id);
    try {
      if (session.readOnly) throw new SessionReadOnlyError(id, session.readOnlyReason ?? 'another window has it open');
      session.appendConfig('title', title.trim());
      return session.summary();
    } finally {
      session.close();
    }
  }

  /** Removes a session's files. Refused while a live process has it open (this one included). */
  delete(id: string): void {
    const path = this.existingLog(id);
    const holder = SessionLock.holder(this.lockPath(id));
    if (holder) throw new SessionLockedError(id, describeLockOwner(holder));
    rmSync(path, { force: true });
    rmSync(summaryPath(path), { force: true });
    rmSync(join(this.dir, `${id}.blobs`), { recursive: true, force: true });
    rmSync(join(this.dir, `${id}.snapshots`), { recursive: true, force: true });
    rmSync(join(this.dir, `${id}.plans`), { recursive: true, force: true });
    rmSync(this.lockPath(id), { force: true });
  }

  private lockPath(id: string): string {
    return join(this.dir, `${id}.lock`);
  }

  private existingLog(id: string): string {
    if (!isValidSessionId(id)) throw new SessionNotFoundError(id, this.workspaceName());
    const path = this.logPath(id);
    if (!existsSync(path)) throw new SessionNotFoundError(id, this.workspaceName());
    return path;
  }

  private workspaceName(): string {
    return this.workspace.workspaceFile ?? this.workspace.root;
  }

  private summaryOf(id: string): SessionSummary | undefined {
    const path = this.logPath(id);
    let size: number;
    let mtime: string;
    let mtimeMs: number;
    try {
      const st = statSync(path);
      size = st.size;
      mtime = st.mtime.toISOString();
      mtimeMs = st.mtimeMs;
    } catch (err) {
      // Deleted between readdir and stat: it is simply no longer there.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.summaries.delete(id);
        return undefined;
      }
      throw err;
    }
    const known = this.summaries.get(id);
    if (known && known.size === size && known.mtimeMs === mtimeMs) return known.summary;
    const cached = readSummary(summaryPath(path), id, size);
    if (cached) {
      this.summaries.set(id, { size, mtimeMs, summary: cached });
      return cached;
    }
    let log: ReturnType<typeof readSessionLog>;
    try {
      log = readSessionLog(path);
    } catch (err) {
      // Deleted by another window since the stat.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.onWarning(`session ${id} left out of the list: ${errorMessage(err)}`);
      return undefined;
    }
    const state = new SessionState();
    for (const { record } of log.records) state.apply(record);
    const summary = summarize(id, state, mtime);
    this.cacheSummary(path, summary, log.bytes);
    return summary;
  }

  private cacheSummary(logPath: string, summary: SessionSummary, logBytes: number): void {
    try {
      writeSummary(summaryPath(logPath), summary, logBytes);
    } catch (err) {
      this.onWarning(`session ${summary.id}: could not write its listing summary: ${errorMessage(err)}`);
    }
  }
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
