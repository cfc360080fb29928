import { readFileSync, statSync } from 'node:fs';
import type { ModelMessage } from 'ai';

/**
 * Whether any message of a log contains `query` (case-insensitive) in text the person or the
 * model wrote. The raw file is checked first, so a log without the words costs one read and
 * one scan; only lines that contain them are parsed, to rule out hits in JSON keys or ids.
 */
export function logMentions(logPath: string, query: string, cache?: LogTextCache): boolean {
  const needle = query.toLowerCase();
  if (needle === '') return true;
  // JSON escapes quotes, backslashes and control characters: look for the query as it is stored.
  const stored = JSON.stringify(needle).slice(1, -1);
  const read = cache ? cache.read(logPath) : readLog(logPath);
  if (!read) return false;
  const { text, lower } = read;
  let at = lower.indexOf(stored);
  while (at >= 0) {
    const start = lower.lastIndexOf('\n', at) + 1;
    let end = lower.indexOf('\n', at);
    if (end < 0) end = lower.length;
    if (lineMentions(text.slice(start, end), needle)) return true;
    at = lower.indexOf(stored, end);
  }
  return false;
}

function lineMentions(line: string, needle: string): boolean {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    // A torn or damaged line holds no message the list could open; the log reader reports it.
    return false;
  }
  if (typeof record !== 'object' || record === null) return false;
  const r = record as { type?: unknown; message?: unknown; key?: unknown; value?: unknown };
  if (r.type === 'config' && r.key === 'title' && typeof r.value === 'string') return r.value.toLowerCase().includes(needle);
  if (r.type === 'compaction') return String((record as { summary?: unknown }).summary ?? '').toLowerCase().includes(needle);
  if (r.type !== 'message' || typeof r.message !== 'object' || r.message === null) return false;
  return messageSearchText(r.message as ModelMessage).toLowerCase().includes(needle);
}

/** The words of a message a person would search for: text, reasoning, tool inputs and text results. */
export function messageSearchText(message: ModelMessage): string {
  const content = (message as { content: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const part of content as Array<Record<string, unknown>>) {
    if ((part.type === 'text' || part.type === 'reasoning') && typeof part.text === 'string') out.push(part.text);
    else if (part.type === 'tool-call') out.push(JSON.stringify(part.input ?? null));
    else if (part.type === 'tool-result') {
      const output = part.output as { type?: unknown; value?: unknown } | undefined;
      if (output && typeof output.value === 'string') out.push(output.value);
    }
  }
  return out.join('\n');
}

interface LogText {
  text: string;
  lower: string;
}

function readLog(logPath: string): LogText | undefined {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch (err) {
    // Deleted by another window since it was listed: nothing there to match.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return { text, lower: text.toLowerCase() };
}

/**
 * The logs' text kept between searches, so narrowing a query as the person types reads no
 * file twice. An entry is used only while the log has the size and time it was read at (logs
 * only grow); past `maxChars` nothing more is kept and searches read from disk as before.
 */
export class LogTextCache {
  private readonly entries = new Map<string, LogText & { size: number; mtimeMs: number }>();
  private chars = 0;

  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  read(logPath: string): LogText | undefined {
    let size: number;
    let mtimeMs: number;
    try {
      ({ size, mtimeMs } = statSync(logPath));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.forget(logPath);
        return undefined;
      }
      throw err;
    }
    const hit = this.entries.get(logPath);
    if (hit && hit.size === size && hit.mtimeMs === mtimeMs) return hit;
    this.forget(logPath);
    const read = readLog(logPath);
    if (read && this.chars + read.text.length <= this.maxChars) {
      this.entries.set(logPath, { ...read, size, mtimeMs });
      this.chars += read.text.length;
    }
    return read;
  }

  private forget(logPath: string): void {
    const old = this.entries.get(logPath);
    if (!old) return;
    this.entries.delete(logPath);
    this.chars -= old.text.length;
  }
}
