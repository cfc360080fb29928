import type { Hunk } from './lineDiff';
import { splitLinesKeepEol } from './textLines';

/**
 * The original text with only the accepted hunks applied: every other line is the
 * original's own, byte for byte (line endings, BOM, a missing final newline included).
 * `hunks` must come from a diff of `before`, in order.
 */
export function applyHunks(before: string, hunks: readonly Hunk[], accepted: (hunk: Hunk, index: number) => boolean): string {
  const lines = splitLinesKeepEol(before);
  const out: string[] = [];
  let at = 0;
  hunks.forEach((hunk, index) => {
    if (hunk.beforeStart < at || hunk.beforeStart + hunk.beforeCount > lines.length) {
      throw new RangeError(`hunk ${index + 1} does not fit the original text (it starts at line ${hunk.beforeStart + 1})`);
    }
    for (; at < hunk.beforeStart; at++) out.push(lines[at]!);
    if (accepted(hunk, index)) out.push(...hunk.added);
    else out.push(...lines.slice(hunk.beforeStart, hunk.beforeStart + hunk.beforeCount));
    at = hunk.beforeStart + hunk.beforeCount;
  });
  for (; at < lines.length; at++) out.push(lines[at]!);
  return out.join('');
}
