import { describe, expect, it } from 'vitest';
import { bottomScrollTop, nextStick, prefixOffsets, rowAt, visibleRange } from '../../../webview/virtual/virtualMath';

describe('virtual list math', () => {
  const heights = [100, 50, 200, 80, 120]; // tops: 0, 100, 150, 350, 430; total 550
  const offsets = prefixOffsets(heights);

  it('sums heights into row tops', () => {
    expect([...offsets]).toEqual([0, 100, 150, 350, 430, 550]);
  });

  it('finds the row under a position', () => {
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 99)).toBe(0);
    expect(rowAt(offsets, 100)).toBe(1);
    expect(rowAt(offsets, 349)).toBe(2);
    expect(rowAt(offsets, 10_000)).toBe(4);
  });

  it('mounts the rows that meet the viewport', () => {
    expect(visibleRange(offsets, 120, 100, 0)).toEqual({ start: 1, end: 3 }); // 120..220 meets rows 1 and 2
    expect(visibleRange(offsets, 0, 100, 0)).toEqual({ start: 0, end: 2 });
    expect(visibleRange(offsets, 450, 100, 0)).toEqual({ start: 4, end: 5 });
  });

  it('widens the range by the overscan on both sides', () => {
    expect(visibleRange(offsets, 200, 50, 100)).toEqual({ start: 1, end: 4 });
  });

  it('mounts a handful of rows out of thousands', () => {
    const many = prefixOffsets(Array.from({ length: 10_000 }, () => 60));
    const range = visibleRange(many, 300_000, 600, 300);
    expect(range.start).toBe(4995);
    expect(range.end - range.start).toBeLessThan(25);
  });

  it('handles an empty list', () => {
    expect(visibleRange(prefixOffsets([]), 0, 500, 100)).toEqual({ start: 0, end: 0 });
  });

  it('computes the scroll position of the bottom', () => {
    expect(bottomScrollTop(550, 200)).toBe(350);
    expect(bottomScrollTop(100, 200)).toBe(0);
  });
});

describe('stick to bottom', () => {
  const viewport = 400;

  it('keeps following while content grows under it', () => {
    let state = { stick: true, lastTop: 600 };
    // A delta made the content taller; scrollTop has not moved yet.
    state = nextStick(state, 600, 1200, viewport);
    expect(state.stick).toBe(true);
  });

  it('stops following when the person scrolls up', () => {
    const state = nextStick({ stick: true, lastTop: 600 }, 450, 1000, viewport);
    expect(state.stick).toBe(false);
  });

  it('does not resume on a scroll down that stops short of the bottom', () => {
    const state = nextStick({ stick: false, lastTop: 100 }, 300, 1000, viewport);
    expect(state.stick).toBe(false);
  });

  it('resumes when the person reaches the bottom again', () => {
    const state = nextStick({ stick: false, lastTop: 300 }, 590, 1000, viewport);
    expect(state.stick).toBe(true);
  });
});
