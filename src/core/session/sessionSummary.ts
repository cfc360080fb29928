import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import type { SessionState, UsageTotals } from './sessionState';

/**
 * Listing reads one small `<id>.meta.json` per session instead of parsing every log. The
 * sidecar is a cache, rewritten (atomically, by rename) after each append by the process that
 * holds the session lock, so writers of different sessions never share a file. It records the
 * log size it describes: a sidecar whose size disagrees with the log (a crash between the two
 * writes, or a log from an older build) is rebuilt from the log on the next listing.
 */
const SUMMARY_VERSION = 2;

const tokens = z.number().int().nonnegative();

const storedSummarySchema = z.object({
  version: z.literal(SUMMARY_VERSION),
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  usage: z.object({
    inputTokens: tokens,
    outputTokens: tokens,
    cachedInputTokens: tokens.optional(),
    cacheWriteTokens: tokens.optional(),
    reasoningTokens: tokens.optional(),
    costUsd: z.number().nonnegative().optional(),
  }),
  logBytes: z.number().int().nonnegative(),
  branch: z.string().optional(),
});
type StoredSummary = z.output<typeof storedSummarySchema>;

export interface SessionSummary {
  id: string;
  /** The `title` config record, else the first line of the first prompt; '' while nothing was said. */
  title: string;
  createdAt: string;
  /** Time of the last record of any kind. */
  updatedAt: string;
  /** Messages on the active branch. */
  messageCount: number;
  /** Tokens over the whole session, abandoned branches included (they were paid for). */
  usage: UsageTotals;
  /** The branch of the git worktree the conversation works in. */
  branch?: string;
}

export function summarize(id: string, state: SessionState, fallbackTime: string): SessionSummary {
  const createdAt = state.header?.ts ?? state.firstTs ?? fallbackTime;
  return {
    id,
    title: state.displayTitle,
    createdAt,
    updatedAt: state.lastTs ?? createdAt,
    messageCount: state.messageCount,
    usage: { ...state.usage },
    ...(state.worktree ? { branch: state.worktree.branch } : {}),
  };
}

export function summaryPath(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '.meta.json');
}

/** The cached summary, if present, well-formed and describing a log of exactly `logBytes`. */
export function readSummary(path: string, id: string, logBytes: number): SessionSummary | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A damaged sidecar is only a cache miss: the caller rebuilds the summary from the log.
    return undefined;
  }
  const parsed = storedSummarySchema.safeParse(json);
  if (!parsed.success || parsed.data.id !== id || parsed.data.logBytes !== logBytes) return undefined;
  const s = parsed.data;
  return { id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, messageCount: s.messageCount, usage: s.usage, ...(s.branch ? { branch: s.branch } : {}) };
}

export function writeSummary(path: string, summary: SessionSummary, logBytes: number): void {
  const stored: StoredSummary = { version: SUMMARY_VERSION, ...summary, logBytes };
  const draft = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(draft, JSON.stringify(stored));
    renameSync(draft, path);
  } catch (err) {
    rmSync(draft, { force: true });
    throw err;
  }
}
