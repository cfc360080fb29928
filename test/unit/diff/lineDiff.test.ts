import { describe, expect, it } from 'vitest';
import { applyHunks } from '../../../src/core/diff/applyHunks';
import { diffLines, hunkTotals } from '../../../src/core/diff/lineDiff';
import { splitLinesKeepEol } from '../../../src/core/diff/textLines';

/** Deterministic pseudo-random numbers, so a failing case can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function mutate(lines: string[], random: () => number, edits: number): string[] {
  const out = [...lines];
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = random();
    if (kind < 0.33 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1);
    else if (kind < 0.66) out.splice(at, 0, `new ${e} ${Math.floor(random() * 5)}\n`);
    else if (out.length > 0) out[Math.min(at, out.length - 1)] = `changed ${e}\n`;
  }
  return out;
}

/** Length of the longest common subsequence, the yardstick of a minimal diff. */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j]!, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

describe('splitLinesKeepEol', () => {
  it('keeps every terminator so joining gives the text back', () => {
    for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\nb', '\n\n', '\uFEFFx\r\ny']) {
      expect(splitLinesKeepEol(text).join('')).toBe(text);
    }
    expect(splitLinesKeepEol('a\r\nb\nc')).toEqual(['a\r\n', 'b\n', 'c']);
  });
});

describe('diffLines', () => {
  it('finds no hunk in equal texts', () => {
    expect(diffLines('a\nb\n', 'a\nb\n').hunks).toEqual([]);
    expect(diffLines('', '').hunks).toEqual([]);
  });

  it('describes one changed line as one hunk with its place in both texts', () => {
    const { hunks } = diffLines('a\nb\nc\n', 'a\nB\nc\n');
    expect(hunks).toEqual([{ beforeStart: 1, beforeCount: 1, afterStart: 1, afterCount: 1, removed: ['b\n'], added: ['B\n'] }]);
  });

  it('keeps separate changes as separate hunks', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n';
    const after = 'ONE\ntwo\nthree\nfour\nfive\nsix\n';
    const { hunks } = diffLines(before, after);
    expect(hunks.map((h) => [h.beforeStart, h.beforeCount, h.afterStart, h.afterCount])).toEqual([
      [0, 1, 0, 1],
      [5, 0, 5, 1],
    ]);
  });

  it('treats a dropped final newline and a changed line ending as changes', () => {
    expect(diffLines('a\nb\n', 'a\nb').hunks).toHaveLength(1);
    expect(diffLines('a\r\nb\r\n', 'a\r\nb\n').hunks[0]).toMatchObject({ beforeStart: 1, removed: ['b\r\n'], added: ['b\n'] });
  });

  it('covers creating and emptying a file', () => {
    expect(diffLines('', 'x\ny\n').hunks).toEqual([{ beforeStart: 0, beforeCount: 0, afterStart: 0, afterCount: 2, removed: [], added: ['x\n', 'y\n'] }]);
    expect(hunkTotals(diffLines('x\ny\n', '').hunks)).toEqual({ added: 0, removed: 2 });
  });

  it('is minimal and reproduces the new text on random edits', () => {
    const random = rng(7);
    for (let round = 0; round < 200; round++) {
      const base = Array.from({ length: Math.floor(random() * 40) }, (_, i) => `line ${i % 7}\n`);
      const a = mutate(base, random, Math.floor(random() * 6));
      const b = mutate(a, random, Math.floor(random() * 8));
      const diff = diffLines(a.join(''), b.join(''));
      expect(applyHunks(a.join(''), diff.hunks, () => true)).toBe(b.join(''));
      expect(applyHunks(a.join(''), diff.hunks, () => false)).toBe(a.join(''));
      const { added, removed } = hunkTotals(diff.hunks);
      const common = lcsLength(a, b);
      expect(removed).toBe(a.length - common);
      expect(added).toBe(b.length - common);
    }
  });

  it('still gives a correct diff when a huge rewrite is cut short', () => {
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}\n`).join('');
    const b = Array.from({ length: 6000 }, (_, i) => `b${i}\n`).join('');
    const diff = diffLines(a, b);
    expect(applyHunks(a, diff.hunks, () => true)).toBe(b);
  });
});

describe('applyHunks', () => {
  it('applies exactly the accepted hunks and nothing else', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'A\nb\nc\nd\ne\nf\nG\nh\n';
    const diff = diffLines(before, after);
    expect(diff.hunks).toHaveLength(2);
    expect(applyHunks(before, diff.hunks, (_h, i) => i === 0)).toBe('A\nb\nc\nd\ne\nf\ng\n');
    expect(applyHunks(before, diff.hunks, (_h, i) => i === 1)).toBe('a\nb\nc\nd\ne\nf\nG\nh\n');
  });

  it('keeps CRLF line endings, a BOM and a missing final newline of the original', () => {
    const before = '\uFEFFone\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix';
    const after = '\uFEFFone\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX\r\nseven';
    const diff = diffLines(before, after);
    expect(diff.hunks).toHaveLength(2);
    const onlyFirst = applyHunks(before, diff.hunks, (_h, i) => i === 0);
    expect(onlyFirst).toBe('\uFEFFone\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix');
    const onlySecond = applyHunks(before, diff.hunks, (_h, i) => i === 1);
    expect(onlySecond).toBe('\uFEFFone\r\ntwo\r\nthree\r\nfour\r\nfive\r\nSIX\r\nseven');
  });

  it('refuses hunks that do not belong to the text', () => {
    const { hunks } = diffLines('a\nb\nc\n', 'a\nb\nC\n');
    expect(() => applyHunks('a\n', hunks, () => true)).toThrow(RangeError);
  });
});
