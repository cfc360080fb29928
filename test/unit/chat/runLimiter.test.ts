import { describe, expect, it } from 'vitest';
import { RunLimiter } from '../../../src/chat/runs/runLimiter';

const signal = () => new AbortController().signal;

describe('RunLimiter (keel.maxConcurrentRuns)', () => {
  it('admits up to the cap at once, then in the order asked as slots are released', async () => {
    const limiter = new RunLimiter(() => 2);
    const first = limiter.acquire(signal());
    const second = limiter.acquire(signal());
    expect(typeof first).toBe('function');
    expect(typeof second).toBe('function');
    expect(limiter.hasRoom()).toBe(false);
    const order: string[] = [];
    const third = Promise.resolve(limiter.acquire(signal())).then((r) => (order.push('third'), r));
    const fourth = Promise.resolve(limiter.acquire(signal())).then((r) => (order.push('fourth'), r));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    (first as () => void)();
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    releaseThird!();
    releaseThird!(); // a second release frees nothing more
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(limiter.running).toBe(2);
  });

  it('a run stopped while it waits gives up its place and holds no slot', async () => {
    const limiter = new RunLimiter(() => 1);
    const held = limiter.acquire(signal()) as () => void;
    const stop = new AbortController();
    const stopped = limiter.acquire(stop.signal);
    const next = limiter.acquire(signal());
    stop.abort();
    expect(await stopped).toBeUndefined();
    held();
    expect(typeof (await next)).toBe('function');
    expect(limiter.running).toBe(1);
  });

  it('a raised cap lets waiting runs start without waiting for one to end', async () => {
    let cap = 1;
    const limiter = new RunLimiter(() => cap);
    limiter.acquire(signal());
    const waiting = limiter.acquire(signal());
    expect(waiting).toBeInstanceOf(Promise);
    cap = 2;
    limiter.recheck();
    expect(typeof (await waiting)).toBe('function');
    expect(limiter.running).toBe(2);
  });

  it('a cap below 1 (or not a number) counts as 1', () => {
    const limiter = new RunLimiter(() => Number.NaN);
    expect(typeof limiter.acquire(signal())).toBe('function');
    expect(limiter.hasRoom()).toBe(false);
  });
});
