import { diffLines } from './lineDiff';
import type { Hunk, LineDiff } from './lineDiff';
import { hasTerminator, lineBody } from './textLines';

export interface UnifiedOptions {
  /** Shown after `---` and `+++`. */
  fromLabel: string;
  toLabel: string;
  /** Unchanged lines around each change (default 3). */
  context?: number;
}

/** The classic `diff -u` text of two texts, or '' when they are equal. */
export function unifiedDiff(before: string, after: string, opts: UnifiedOptions): string {
  return formatUnified(diffLines(before, after), opts);
}

/** `diff -u` text of a computed diff; hunks closer than twice the context share one `@@` block. */
export function formatUnified(diff: LineDiff, opts: UnifiedOptions): string {
  if (diff.hunks.length === 0) return '';
  const context = opts.context ?? 3;
  const out = [`--- ${opts.fromLabel}`, `+++ ${opts.toLabel}`];
  for (const group of groups(diff.hunks, context)) out.push(...block(diff, group, context));
  return `${out.join('\n')}\n`;
}

/** One `@@` block per hunk, without merging, for telling the model about single hunks. */
export function formatHunk(diff: Pick<LineDiff, 'beforeLines'>, hunk: Hunk, context = 3): string {
  return block(diff, [hunk], context).join('\n');
}

function groups(hunks: readonly Hunk[], context: number): Hunk[][] {
  const out: Hunk[][] = [];
  let current: Hunk[] = [];
  for (const hunk of hunks) {
    const last = current.at(-1);
    if (last && hunk.beforeStart - (last.beforeStart + last.beforeCount) > 2 * context) {
      out.push(current);
      current = [];
    }
    current.push(hunk);
  }
  if (current.length) out.push(current);
  return out;
}

function block(diff: Pick<LineDiff, 'beforeLines'>, group: readonly Hunk[], context: number): string[] {
  const lines = diff.beforeLines;
  const first = group[0]!;
  const last = group.at(-1)!;
  const aStart = Math.max(0, first.beforeStart - context);
  const lastEnd = last.beforeStart + last.beforeCount;
  const aEnd = Math.min(lines.length, lastEnd + context);
  const bStart = first.afterStart - (first.beforeStart - aStart);
  const bEnd = last.afterStart + last.afterCount + (aEnd - lastEnd);
  const body: string[] = [];
  const push = (prefix: string, line: string): void => {
    body.push(prefix + lineBody(line));
    if (!hasTerminator(line)) body.push('\\ No newline at end of file');
  };
  let at = aStart;
  for (const hunk of group) {
    for (; at < hunk.beforeStart; at++) push(' ', lines[at]!);
    for (const line of hunk.removed) push('-', line);
    for (const line of hunk.added) push('+', line);
    at = hunk.beforeStart + hunk.beforeCount;
  }
  for (; at < aEnd; at++) push(' ', lines[at]!);
  return [`@@ -${range(aStart, aEnd - aStart)} +${range(bStart, bEnd - bStart)} @@`, ...body];
}

function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
