import type { GrepFileHits, GrepMode, GrepOutcome } from './grepTypes';
import { newestFirst } from './newestFirst';

export const grepDefaultLimits: Record<GrepMode, number> = { files_with_matches: 200, content: 300, count: 200 };
const maxLineChars = 500;
const maxOutputChars = 30_000;

export interface GrepFormatOptions {
  mode: GrepMode;
  lineNumbers: boolean;
  /** Whether context lines were asked for: groups are then separated by `--`. */
  withContext: boolean;
  headLimit?: number;
  display: (absPath: string) => string;
}

function clipLine(text: string): string {
  return text.length > maxLineChars ? `${text.slice(0, maxLineChars)}… [${text.length - maxLineChars} more characters]` : text;
}

function byDisplay(display: (p: string) => string): (a: GrepFileHits, b: GrepFileHits) => number {
  return (a, b) => {
    const x = display(a.path);
    const y = display(b.path);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/**
 * Renders results the same way whichever engine found them: files newest first, content and
 * counts in path order, capped by head_limit and by size with a note saying what was left out.
 */
export async function formatGrep(outcome: GrepOutcome, opts: GrepFormatOptions): Promise<string> {
  const limit = opts.headLimit ?? grepDefaultLimits[opts.mode];
  const notes: string[] = [];
  if (outcome.truncated) notes.push('The search stopped early because there were too many results; narrow the pattern, path or glob.');
  if (outcome.warnings.length > 0) {
    notes.push(`Some files could not be searched:\n${outcome.warnings.slice(0, 5).join('\n')}`);
  }
  if (outcome.files.length === 0) return ['No matches found.', ...notes].join('\n\n');

  let lines: string[];
  let total: number;
  let unit: string;
  if (opts.mode === 'files_with_matches') {
    const files = await newestFirst(
      outcome.files.map((f) => f.path),
      opts.display,
    );
    total = files.length;
    unit = 'files';
    lines = [`Found ${total} file${total === 1 ? '' : 's'}`, ...files.slice(0, limit).map((p) => opts.display(p))];
  } else if (opts.mode === 'count') {
    const files = [...outcome.files].sort(byDisplay(opts.display));
    total = files.length;
    unit = 'files';
    const matches = files.reduce((n, f) => n + f.count, 0);
    lines = files.slice(0, limit).map((f) => `${opts.display(f.path)}:${f.count}`);
    lines.push('', `${matches} matching line${matches === 1 ? '' : 's'} in ${total} file${total === 1 ? '' : 's'}`);
  } else {
    const rendered = contentLines(outcome.files, opts);
    total = rendered.length;
    unit = 'lines';
    lines = rendered.slice(0, limit);
  }
  if (total > limit) {
    notes.push(`Showing the first ${limit} of ${total} ${unit}. Use head_limit, or narrow the path, glob or pattern.`);
  }
  let text = lines.join('\n');
  if (text.length > maxOutputChars) {
    const cut = text.lastIndexOf('\n', maxOutputChars);
    const shown = text.slice(0, cut > 0 ? cut : maxOutputChars);
    const dropped = text.slice(shown.length).split('\n').length - 1;
    notes.push(`Output cut at ${maxOutputChars} characters (${dropped} more lines). Narrow the search to see the rest.`);
    text = shown;
  }
  return [text, ...notes].join('\n\n');
}

function contentLines(files: GrepFileHits[], opts: GrepFormatOptions): string[] {
  const out: string[] = [];
  let previous: { path: string; line: number } | undefined;
  for (const file of [...files].sort(byDisplay(opts.display))) {
    const shown = opts.display(file.path);
    const ordered = [...file.lines].sort((a, b) => a.line - b.line);
    for (const l of ordered) {
      const contiguous = previous && previous.path === file.path && previous.line + 1 === l.line;
      if (opts.withContext && previous && !contiguous) out.push('--');
      const sepChar = l.match ? ':' : '-';
      const number = opts.lineNumbers ? `${l.line}${sepChar}` : '';
      out.push(`${shown}${sepChar}${number}${clipLine(l.text)}`);
      previous = { path: file.path, line: l.line };
    }
  }
  return out;
}
