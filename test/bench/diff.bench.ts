import { applyHunks } from '../../src/core/diff/applyHunks';
import { diffLines } from '../../src/core/diff/lineDiff';
import { ProposalReview } from '../../src/core/diff/proposalReview';
import type { Bench, BenchSuite } from './benchTypes';

/** Source-like lines of varied length, many of them repeated (as braces and returns are in code). */
function codeLine(i: number): string {
  switch (i % 6) {
    case 0:
      return `export function handler${i}(input: Input): Output | null {\n`;
    case 1:
      return `  const value = compute(input, ${i});\n`;
    case 2:
      return '  if (!value) return null;\n';
    case 3:
      return `  return { value, weight: ${i % 97} };\n`;
    case 4:
      return '}\n';
    default:
      return '\n';
  }
}

const LINES = 10_000;
const original = Array.from({ length: LINES }, (_, i) => codeLine(i));

/** `count` edits spread over the file: a changed line, an inserted block, a deleted line, in turn. */
function scattered(count: number): string {
  const out = [...original];
  const step = Math.floor(LINES / count);
  for (let e = count - 1; e >= 0; e--) {
    const at = e * step + 1;
    if (e % 3 === 0) out[at] = `  const value = computeFaster(input, ${at});\n`;
    else if (e % 3 === 1) out.splice(at, 0, `  log('visited ${at}');\n`, `  metrics.count(${at});\n`);
    else out.splice(at, 1);
  }
  return out.join('');
}

/** A large block in the middle rewritten (a refactor of one part of the file). */
function rewrittenBlock(lines: number): string {
  const out = [...original];
  const start = Math.floor((LINES - lines) / 2);
  for (let i = start; i < start + lines; i++) out[i] = `  // rewritten ${i}: ${out[i]!.trim()}\n`;
  return out.join('');
}

const before = original.join('');

interface Pair {
  after: string;
}

function hunksBench(name: string, after: () => string): Bench<Pair> {
  return {
    name,
    target: '< 50 ms',
    limit: 50,
    runs: 15,
    warmup: 2,
    setup: () => ({ after: after() }),
    run({ after }) {
      const { hunks } = diffLines(before, after);
      if (hunks.length === 0) throw new Error('no hunks found');
    },
  };
}

const applyBench: Bench<Pair> = {
  name: 'review a 10,000-line proposal (200 edits): hunks, reject every other hunk, apply',
  target: '< 50 ms',
  limit: 50,
  runs: 15,
  warmup: 2,
  setup: () => ({ after: scattered(200) }),
  run({ after }) {
    const review = new ProposalReview({ displayPath: 'big.ts', before, after });
    const { hunks } = diffLines(before, after);
    const content = applyHunks(before, hunks, (_h, i) => i % 2 === 0);
    review.setText(content);
    if (review.accept().note === undefined) throw new Error('expected a note about the edits');
  },
};

export const suite: BenchSuite = {
  name: 'diff',
  benches: [
    hunksBench('hunks of a 10,000-line file, 20 scattered edits', () => scattered(20)),
    hunksBench('hunks of a 10,000-line file, 200 scattered edits', () => scattered(200)),
    hunksBench('hunks of a 10,000-line file, 2,000-line block rewritten', () => rewrittenBlock(2_000)),
    hunksBench('hunks of a 10,000-line file rewritten whole', () => rewrittenBlock(LINES)),
    applyBench,
  ],
};
