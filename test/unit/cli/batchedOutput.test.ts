import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchedOutput } from '../../../src/cli/batchedOutput';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('batched stdout', () => {
  it('sends the pieces of one burst as one write, in order, a few ms later', () => {
    const writes: string[] = [];
    const out = batchedOutput((s) => writes.push(s));
    for (const piece of ['The ', 'answer ', 'is ', '42.']) out.write(piece);
    expect(writes).toEqual([]);
    vi.runAllTimers();
    expect(writes).toEqual(['The answer is 42.']);
    out.write('\n');
    vi.runAllTimers();
    expect(writes).toEqual(['The answer is 42.', '\n']);
  });

  it('flush writes what is buffered at once and leaves nothing for the timer', () => {
    const writes: string[] = [];
    const out = batchedOutput((s) => writes.push(s));
    out.write('partial');
    out.flush();
    expect(writes).toEqual(['partial']);
    vi.runAllTimers();
    out.flush();
    expect(writes).toEqual(['partial']);
  });

  it('does not hold a large burst back', () => {
    const writes: string[] = [];
    const out = batchedOutput((s) => writes.push(s));
    const big = 'x'.repeat(70 * 1024);
    out.write(big);
    expect(writes).toEqual([big]);
  });
});
