import { describe, expect, it } from 'vitest';
import { estimateTokens, fitToBudget } from '../../../src/core/llmsContext/tokenBudget';

describe('fitToBudget', () => {
  it('leaves text within budget untouched', () => {
    const text = 'one\ntwo\nthree';
    expect(fitToBudget(text, 100, 'hint')).toEqual({ text, tokens: estimateTokens(text), cut: false });
  });

  it('cuts at a line end and says how much was shown and how to see the rest', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line number ${i}`).join('\n');
    const out = fitToBudget(text, 200, 'read big.txt for the rest');
    expect(out.cut).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(200);
    const lines = out.text.split('\n');
    expect(lines.at(-1)).toMatch(/^\[cut to fit 200 tokens: \d+ of 500 lines shown; read big.txt for the rest\]$/);
    // Every kept line is whole.
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^line number \d+$/);
  });

  it('cuts one enormous line instead of dropping everything', () => {
    const out = fitToBudget('x'.repeat(10_000), 100, '');
    expect(out.cut).toBe(true);
    expect(out.text.startsWith('xxxx')).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(100);
  });
});
