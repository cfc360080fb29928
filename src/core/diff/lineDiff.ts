import { diffSequences } from './myersDiff';
import { splitLinesKeepEol } from './textLines';

/**
 * One contiguous change between two texts: `removed` (lines of the original from
 * `beforeStart`) are replaced by `added` (lines of the new text from `afterStart`).
 * Line numbers are 0-based; lines keep their terminators.
 */
export interface Hunk {
  beforeStart: number;
  beforeCount: number;
  afterStart: number;
  afterCount: number;
  removed: string[];
  added: string[];
}

export interface LineDiff {
  beforeLines: string[];
  afterLines: string[];
  hunks: Hunk[];
}

/**
 * Line diff of two texts. Lines are compared with their terminators, so a changed line
 * ending or a final newline added or dropped is a change like any other.
 */
export function diffLines(before: string, after: string): LineDiff {
  const beforeLines = splitLinesKeepEol(before);
  const afterLines = splitLinesKeepEol(after);
  const ids = new Map<string, number>();
  const idsOf = (lines: string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const ranges = diffSequences(idsOf(beforeLines), idsOf(afterLines));
  const hunks = ranges.map(
    (r): Hunk => ({
      beforeStart: r.aStart,
      beforeCount: r.aEnd - r.aStart,
      afterStart: r.bStart,
      afterCount: r.bEnd - r.bStart,
      removed: beforeLines.slice(r.aStart, r.aEnd),
      added: afterLines.slice(r.bStart, r.bEnd),
    }),
  );
  return { beforeLines, afterLines, hunks };
}

/** Lines added and removed in all. */
export function hunkTotals(hunks: readonly Hunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.afterCount;
    removed += h.beforeCount;
  }
  return { added, removed };
}
