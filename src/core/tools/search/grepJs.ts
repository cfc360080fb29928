import { readFileSync, statSync } from 'node:fs';
import { sniffBytes } from '../text/textFile';
import { walkFiles } from './fileWalker';
import { globFilterAccepts } from './globFilter';
import {
  grepMaxContentLines,
  grepMaxFileBytes,
  grepMaxFiles,
  GrepPatternError,
  type GrepFileHits,
  type GrepLine,
  type GrepOutcome,
  type GrepQuery,
} from './grepTypes';

/** Compiles the pattern as JavaScript would run it; `(?i)` at the start means ignore case, as in ripgrep. */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): RegExp {
  let source = pattern;
  let flags = ignoreCase ? 'i' : '';
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    if (!flags.includes('i')) flags += 'i';
  }
  try {
    return new RegExp(source, `${flags}u`);
  } catch (unicodeErr) {
    // Without the u flag JavaScript accepts more escapes (\-, lone braces) that ripgrep accepts too.
    try {
      return new RegExp(source, flags);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new GrepPatternError(`Invalid regular expression ${JSON.stringify(pattern)}: ${why}`, { cause: unicodeErr });
    }
  }
}

/** Bytes read synchronously before yielding to the event loop (sync reads of small files are far cheaper). */
const yieldEveryBytes = 4 * 1024 * 1024;

/** The built-in search, used when ripgrep is not available; gives the same results. */
export async function grepWithJs(query: GrepQuery, signal: AbortSignal): Promise<GrepOutcome> {
  const regex = compileGrepPattern(query.pattern, query.ignoreCase);
  const walk = await walkFiles(query.roots, { signal });
  const candidates = query.glob ? walk.files.filter((f) => globFilterAccepts(query.glob!, query.roots, f)) : walk.files;
  const outcome: GrepOutcome = { files: [], truncated: walk.truncated, warnings: walk.warnings };
  let contentLines = 0;
  let sinceYield = 0;
  for (const file of candidates) {
    if (sinceYield >= yieldEveryBytes) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sinceYield = 0;
    }
    if (signal.aborted) throw new Error('Search cancelled.');
    const bytes = readCandidate(file, outcome.warnings);
    if (!bytes) continue;
    sinceYield += bytes.length;
    const hits = searchText(file, bytes, regex, query);
    if (!hits) continue;
    if (outcome.files.length >= grepMaxFiles) {
      outcome.truncated = true;
      break;
    }
    outcome.files.push(hits);
    contentLines += hits.lines.length;
    if (contentLines >= grepMaxContentLines) {
      outcome.truncated = true;
      break;
    }
  }
  return outcome;
}

function readCandidate(path: string, warnings: string[]): Buffer | undefined {
  try {
    const info = statSync(path);
    if (info.size > grepMaxFileBytes) return undefined;
    return readFileSync(path);
  } catch (err) {
    warnings.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

function searchText(path: string, bytes: Buffer, regex: RegExp, query: GrepQuery): GrepFileHits | undefined {
  if (bytes.subarray(0, sniffBytes).includes(0)) return undefined;
  let text = bytes.toString('utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    lines[i] = line;
    if (regex.test(line)) matched.push(i);
  }
  if (matched.length === 0) return undefined;
  const hits: GrepFileHits = { path, count: matched.length, lines: [] };
  if (query.mode === 'content') hits.lines = withContext(lines, matched, query.before, query.after);
  return hits;
}

/** Matching lines plus their context, overlapping windows merged, in file order. */
function withContext(lines: string[], matched: number[], before: number, after: number): GrepLine[] {
  const isMatch = new Set(matched);
  const out: GrepLine[] = [];
  let shownUpTo = -1;
  for (const m of matched) {
    const from = Math.max(m - before, shownUpTo + 1);
    const to = Math.min(m + after, lines.length - 1);
    for (let i = from; i <= to; i++) out.push({ line: i + 1, text: lines[i], match: isMatch.has(i) });
    shownUpTo = Math.max(shownUpTo, to);
  }
  return out;
}
