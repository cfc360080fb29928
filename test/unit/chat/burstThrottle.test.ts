import { afterEach, describe, expect, it, vi } from 'vitest';
import { BurstThrottle } from '../../../src/chat/conversations/burstThrottle';

afterEach(() => {
  vi.useRealTimers();
});

describe('BurstThrottle', () => {
  it('acts on a single change at once and not again', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const throttle = new BurstThrottle(fn, 500);
    throttle.signal();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('turns a storm of changes into one run per window plus one after it', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const throttle = new BurstThrottle(fn, 500);
    for (let i = 0; i < 1_000; i++) {
      throttle.signal();
      vi.advanceTimersByTime(1);
    }
    // 1,000 ms of changes: at the start, at 500 and at 1,000 ms.
    expect(fn).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('never runs again after dispose', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const throttle = new BurstThrottle(fn, 500);
    throttle.signal();
    throttle.signal();
    throttle.dispose();
    vi.advanceTimersByTime(1_000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
