/** `a[aStart, aEnd)` is replaced by `b[bStart, bEnd)`; one side may be empty (pure insert or delete). */
export interface EditRange {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/**
 * Past this many edit steps in one search (scaled down for large regions) a region is
 * reported as replaced whole instead of searched further: a near-total rewrite of a huge
 * file then costs milliseconds, not seconds, and the result is still a correct diff.
 */
const WORK_BUDGET = 20_000_000;
const MIN_MAX_COST = 256;

/**
 * The shortest edit script between two sequences of ids (Myers' O(ND) algorithm in linear
 * space: find the middle snake, recurse on both halves), as ordered, non-adjacent ranges.
 */
export function diffSequences(a: Int32Array, b: Int32Array): EditRange[] {
  // Lines found in only one of the two can only be deleted or inserted: searching without
  // them (as GNU diff does) makes a rewritten block cost nothing, and the result is the same.
  const inA = new Set(a);
  const inB = new Set(b);
  const keptA = keptIndexes(a, inB);
  const keptB = keptIndexes(b, inA);
  const changedA = new Uint8Array(a.length + 1);
  const changedB = new Uint8Array(b.length + 1);
  for (let i = 0; i < a.length; i++) if (!inB.has(a[i]!)) changedA[i] = 1;
  for (let j = 0; j < b.length; j++) if (!inA.has(b[j]!)) changedB[j] = 1;
  const filteredA = Int32Array.from(keptA, (i) => a[i]!);
  const filteredB = Int32Array.from(keptB, (j) => b[j]!);
  for (const r of new MyersDiff(filteredA, filteredB).run()) {
    for (let i = r.aStart; i < r.aEnd; i++) changedA[keptA[i]!] = 1;
    for (let j = r.bStart; j < r.bEnd; j++) changedB[keptB[j]!] = 1;
  }
  return rangesOf(changedA, a.length, changedB, b.length);
}

function keptIndexes(seq: Int32Array, other: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < seq.length; i++) if (other.has(seq[i]!)) out.push(i);
  return out;
}

/** Unchanged lines pair up in order; each run of changed lines between them is one range. */
function rangesOf(changedA: Uint8Array, n: number, changedB: Uint8Array, m: number): EditRange[] {
  const out: EditRange[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !changedA[i] && !changedB[j]) {
      i++;
      j++;
      continue;
    }
    const aStart = i;
    const bStart = j;
    while (i < n && changedA[i]) i++;
    while (j < m && changedB[j]) j++;
    out.push({ aStart, aEnd: i, bStart, bEnd: j });
  }
  return out;
}

class MyersDiff {
  private readonly out: EditRange[] = [];
  private vf = new Int32Array(0);
  private vb = new Int32Array(0);

  constructor(
    private readonly a: Int32Array,
    private readonly b: Int32Array,
  ) {}

  run(): EditRange[] {
    this.region(0, 0, this.a.length, this.b.length);
    return this.out;
  }

  private region(left: number, top: number, right: number, bottom: number): void {
    const { a, b } = this;
    while (left < right && top < bottom && a[left] === b[top]) {
      left++;
      top++;
    }
    while (left < right && top < bottom && a[right - 1] === b[bottom - 1]) {
      right--;
      bottom--;
    }
    if (left === right && top === bottom) return;
    if (left === right || top === bottom) {
      this.emit(left, right, top, bottom);
      return;
    }
    const snake = this.middleSnake(left, top, right, bottom);
    if (!snake) {
      this.emit(left, right, top, bottom);
      return;
    }
    const [x1, y1, x2, y2] = snake;
    this.region(left, top, x1, y1);
    this.region(x2, y2, right, bottom);
  }

  /** Ranges arrive in order; touching ones merge into one. */
  private emit(aStart: number, aEnd: number, bStart: number, bEnd: number): void {
    const last = this.out.at(-1);
    if (last && last.aEnd === aStart && last.bEnd === bStart) {
      last.aEnd = aEnd;
      last.bEnd = bEnd;
      return;
    }
    this.out.push({ aStart, aEnd, bStart, bEnd });
  }

  /**
   * A diagonal run (x1,y1)→(x2,y2) that lies on a shortest path through the box and splits
   * its edits about in half, or undefined when the search would cost more than it is worth.
   */
  private middleSnake(left: number, top: number, right: number, bottom: number): [number, number, number, number] | undefined {
    const { a, b } = this;
    const width = right - left;
    const height = bottom - top;
    const size = width + height;
    const delta = width - height;
    const odd = (delta & 1) !== 0;
    const max = Math.ceil(size / 2);
    const maxCost = Math.max(MIN_MAX_COST, Math.floor(WORK_BUDGET / size));
    const offset = max + 1;
    const length = 2 * max + 3;
    if (this.vf.length < length) {
      this.vf = new Int32Array(length);
      this.vb = new Int32Array(length);
    }
    const vf = this.vf;
    const vb = this.vb;
    vf[offset + 1] = left;
    vb[offset + 1] = bottom;
    for (let d = 0; d <= max; d++) {
      if (d > maxCost) return undefined;
      // Forward: furthest x on each diagonal k = (x - left) - (y - top).
      for (let k = d; k >= -d; k -= 2) {
        let x: number;
        if (k === -d || (k !== d && vf[offset + k - 1]! < vf[offset + k + 1]!)) x = vf[offset + k + 1]!;
        else x = vf[offset + k - 1]! + 1;
        let y = top + (x - left) - k;
        const sx = x;
        const sy = y;
        while (x < right && y < bottom && a[x] === b[y]) {
          x++;
          y++;
        }
        vf[offset + k] = x;
        const c = k - delta;
        if (odd && c >= -(d - 1) && c <= d - 1 && y >= vb[offset + c]!) return [sx, sy, x, y];
      }
      // Backward: furthest y (going up) on each diagonal c = k - delta.
      for (let c = d; c >= -d; c -= 2) {
        let y: number;
        if (c === -d || (c !== d && vb[offset + c - 1]! > vb[offset + c + 1]!)) y = vb[offset + c + 1]!;
        else y = vb[offset + c - 1]! - 1;
        const k = c + delta;
        let x = left + (y - top) + k;
        const sx = x;
        const sy = y;
        while (x > left && y > top && a[x - 1] === b[y - 1]) {
          x--;
          y--;
        }
        vb[offset + c] = y;
        if (!odd && k >= -d && k <= d && x <= vf[offset + k]!) return [x, y, sx, sy];
      }
    }
    return undefined;
  }
}
