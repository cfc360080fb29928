import { open } from 'node:fs/promises';
import * as z from 'zod';
import { sniffBytes } from '../text/textFile';
import { globFilterAccepts } from './globFilter';
import {
  grepMaxContentLines,
  grepMaxFileBytes,
  grepMaxFiles,
  GrepPatternError,
  type GrepFileHits,
  type GrepOutcome,
  type GrepQuery,
} from './grepTypes';
import { ripgrepBaseArgs, runRipgrep } from './ripgrep';

/** ripgrep's JSON carries text as UTF-8 `text`, or base64 `bytes` when it is not valid UTF-8. */
const rgData = z.object({ text: z.string() }).or(z.object({ bytes: z.string() }));
const rgLine = z.object({
  type: z.enum(['match', 'context']),
  data: z.object({ path: rgData, lines: rgData, line_number: z.number() }),
});

function dataText(d: z.infer<typeof rgData>): string {
  return 'text' in d ? d.text : Buffer.from(d.bytes, 'base64').toString('utf8');
}

function stripEol(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** Runs the query with ripgrep; results are then checked like the built-in engine does. */
export async function grepWithRipgrep(rgPath: string, query: GrepQuery, signal: AbortSignal): Promise<GrepOutcome> {
  const args = [...ripgrepBaseArgs, '--text', '--crlf', `--max-filesize=${grepMaxFileBytes}`];
  if (query.ignoreCase) args.push('--ignore-case');
  // A name-only glob narrows ripgrep's search through a file type (which, unlike --glob, still
  // honours .gitignore); every glob is applied exactly afterwards.
  if (query.glob?.basenameOnly && !query.glob.negate) args.push(`--type-add=keelglob:${query.glob.glob}`, '--type=keelglob');
  const byPath = new Map<string, GrepFileHits>();
  let truncated = false;
  let contentLines = 0;
  let separator = '\n';
  let onLine: (line: string) => boolean;
  if (query.mode === 'files_with_matches') {
    args.push('--files-with-matches', '--null');
    separator = '\0';
    onLine = (path) => {
      if (path === '') return true;
      byPath.set(path, { path, count: 1, lines: [] });
      truncated = byPath.size >= grepMaxFiles;
      return !truncated;
    };
  } else if (query.mode === 'count') {
    args.push('--count', '--with-filename', '--null');
    onLine = (line) => {
      const nul = line.lastIndexOf('\0');
      if (nul < 0) return true;
      const path = line.slice(0, nul);
      byPath.set(path, { path, count: Number(line.slice(nul + 1)), lines: [] });
      truncated = byPath.size >= grepMaxFiles;
      return !truncated;
    };
  } else {
    args.push('--json', '--line-number', `--before-context=${query.before}`, `--after-context=${query.after}`);
    onLine = (line) => {
      if (!line.startsWith('{"type":"match"') && !line.startsWith('{"type":"context"')) return true;
      const parsed = rgLine.parse(JSON.parse(line));
      const path = dataText(parsed.data.path);
      let hits = byPath.get(path);
      if (!hits) {
        hits = { path, count: 0, lines: [] };
        byPath.set(path, hits);
      }
      const isMatch = parsed.type === 'match';
      if (isMatch) hits.count++;
      hits.lines.push({ line: parsed.data.line_number, text: stripEol(dataText(parsed.data.lines)), match: isMatch });
      contentLines++;
      truncated = contentLines >= grepMaxContentLines;
      return !truncated;
    };
  }
  args.push('--regexp', query.pattern, '--', ...query.roots);
  const run = await runRipgrep(rgPath, args, { signal, separator, onLine });
  const stderr = run.stderr.trim();
  if (run.code === 2 && byPath.size === 0 && stderr !== '') {
    throw new GrepPatternError(`ripgrep rejected the search: ${stderr}`);
  }
  const warnings = run.code === 2 && stderr !== '' ? stderr.split('\n') : [];
  const files: GrepFileHits[] = [];
  for (const hits of byPath.values()) {
    if (query.glob && !globFilterAccepts(query.glob, query.roots, hits.path)) continue;
    if (await startsBinary(hits.path)) continue;
    files.push(hits);
  }
  return { files, truncated: truncated || run.stopped, warnings };
}

/** Same binary rule as the built-in engine: a NUL byte in the first 8 KB. */
async function startsBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(head, 0, sniffBytes, 0);
    return head.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
