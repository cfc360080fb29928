/** Beyond this many differing lines an exact count is not worth the time; every changed line is counted. */
const MAX_EDIT_DISTANCE = 1_500;

export interface DiffStats {
  added: number;
  removed: number;
}

/**
 * Lines added and removed between two texts, as a line diff would count them (the +N −M
 * on an approval card). Common head and tail are skipped; the middle uses Myers' algorithm,
 * bounded so a rewrite of a huge file costs no more than counting its lines.
 */
export function lineDiffStats(before: string | null, after: string | null): DiffStats {
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const distance = editDistance(a, start, endA, b, start, endB, MAX_EDIT_DISTANCE);
  if (distance === undefined) return { added: m, removed: n };
  // distance = added + removed, and added − removed = m − n.
  return { added: (distance + m - n) / 2, removed: (distance - m + n) / 2 };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Myers' shortest edit script length (insertions + deletions), or undefined past `maxD`. */
function editDistance(a: string[], a0: number, a1: number, b: string[], b0: number, b1: number, maxD: number): number | undefined {
  const n = a1 - a0;
  const m = b1 - b0;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return undefined;
}
