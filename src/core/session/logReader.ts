import { readFileSync } from 'node:fs';
import { isConfigKey, isRecordType, recordSchemas } from './sessionRecords';
import type { SessionRecord } from './sessionRecords';

export interface ParsedRecord {
  record: SessionRecord;
  /** 1-based line number in the log, for warnings. */
  line: number;
}

export interface LogWarning {
  line: number;
  /** Starts with "line N:" and says why the line was skipped. */
  message: string;
}

export interface ParsedLog {
  records: ParsedRecord[];
  warnings: LogWarning[];
  /** False when the last write was cut short: the next record must start on a fresh line. */
  endsWithNewline: boolean;
  /** Size of the log in bytes when it was read. */
  bytes: number;
}

export function readSessionLog(path: string): ParsedLog {
  const buf = readFileSync(path);
  return { ...parseSessionLog(buf.toString('utf8')), bytes: buf.length };
}

/** Parses a whole log. Bad lines are skipped with a warning; nothing here throws on content. */
export function parseSessionLog(text: string): Omit<ParsedLog, 'bytes'> {
  const records: ParsedRecord[] = [];
  const warnings: LogWarning[] = [];
  const endsWithNewline = text.length === 0 || text.endsWith('\n');
  const lines = text.split('\n');
  const last = lines.length - 1;
  for (let i = 0; i <= last; i++) {
    const raw = lines[i]!;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const lineNo = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(i === 0 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    } catch (err) {
      const torn = i === last && !endsWithNewline;
      warnings.push({
        line: lineNo,
        message: torn
          ? `line ${lineNo}: the last record is incomplete (Keel probably stopped while writing it); skipped`
          : `line ${lineNo}: not valid JSON (${(err as Error).message}); skipped`,
      });
      continue;
    }
    const result = parseRecord(json);
    if ('record' in result) records.push({ record: result.record, line: lineNo });
    else warnings.push({ line: lineNo, message: `line ${lineNo}: ${result.problem}; skipped` });
  }
  return { records, warnings, endsWithNewline };
}

export function parseRecord(json: unknown): { record: SessionRecord } | { problem: string } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { problem: 'not a JSON object' };
  const type = (json as { type?: unknown }).type;
  if (typeof type !== 'string') return { problem: 'record has no "type"' };
  if (!isRecordType(type)) return { problem: `unknown record type "${type}" (written by a newer Keel?)` };
  if (type === 'config') {
    const key = (json as { key?: unknown }).key;
    if (typeof key === 'string' && !isConfigKey(key)) return { problem: `unknown config key "${key}" (written by a newer Keel?)` };
  }
  const parsed = recordSchemas[type].safeParse(json);
  if (!parsed.success) return { problem: `invalid "${type}" record (${describeIssues(parsed.error.issues)})` };
  return { record: parsed.data };
}

function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
