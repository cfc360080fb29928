/** Rows [start, end) to mount. */
export interface RowRange {
  start: number;
  end: number;
}

/** offsets[i] is the top of row i; offsets[n] is the total height. */
export function prefixOffsets(heights: readonly number[]): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = (offsets[i] ?? 0) + (heights[i] ?? 0);
  return offsets;
}

/** The row under vertical position y (clamped to the rows that exist). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Rows that intersect the viewport, widened by `overscan` pixels each way so a quick
 * scroll does not show blank space before the next render.
 */
export function visibleRange(offsets: Float64Array, scrollTop: number, viewportHeight: number, overscan: number): RowRange {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscan);
  const bottom = scrollTop + Math.max(0, viewportHeight) + overscan;
  const start = rowAt(offsets, top);
  let end = rowAt(offsets, bottom) + 1;
  if (end > count) end = count;
  return { start, end };
}

/** Where the list is scrolled to while it sticks to the bottom. */
export function bottomScrollTop(totalHeight: number, viewportHeight: number): number {
  return Math.max(0, totalHeight - viewportHeight);
}

export interface StickState {
  /** Follow new content to the bottom. */
  stick: boolean;
  /** scrollTop at the previous scroll event. */
  lastTop: number;
}

/** Within this many pixels of the bottom counts as "at the bottom". */
export const BOTTOM_SLACK = 24;

/**
 * Sticking survives content growing under it (scrollTop stays while scrollHeight grows)
 * and ends only when the person scrolls up; reaching the bottom again resumes it.
 */
export function nextStick(previous: StickState, scrollTop: number, scrollHeight: number, clientHeight: number): StickState {
  const atBottom = scrollHeight - clientHeight - scrollTop <= BOTTOM_SLACK;
  if (atBottom) return { stick: true, lastTop: scrollTop };
  if (scrollTop < previous.lastTop - 1) return { stick: false, lastTop: scrollTop };
  return { stick: previous.stick, lastTop: scrollTop };
}
