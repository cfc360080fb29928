import { describe, expect, it } from 'vitest';
import { ProposalReview } from '../../../src/core/diff/proposalReview';

const original = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].map((l) => `${l}\n`).join('');
const proposal = original.replace('beta\n', 'BETA\n').replace('iota\n', 'IOTA\nnew line\n');

describe('ProposalReview', () => {
  it('accepting untouched writes the proposal and tells the model nothing extra', () => {
    const review = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    expect(review.hunks()).toHaveLength(2);
    expect(review.accept()).toEqual({ content: proposal });
  });

  it('a rejected hunk is taken out of the proposal and named in the note', () => {
    const review = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    const shown = review.rejectHunk(1);
    expect(shown).toBe(original.replace('beta\n', 'BETA\n'));
    expect(review.hunks()).toHaveLength(1);
    const accepted = review.accept();
    expect(accepted.content).toBe(original.replace('beta\n', 'BETA\n'));
    expect(accepted.note).toContain('rejected 1 of its 2 hunks');
    expect(accepted.note).toContain('+IOTA');
    expect(accepted.note).not.toContain('edited your proposal');
  });

  it('deciding every hunk settles the change: all accepted, or all rejected', () => {
    const review = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    review.acceptHunk(0);
    expect(review.decided()).toBeUndefined();
    review.acceptHunk(1);
    expect(review.decided()).toBe('accept');

    const refused = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    refused.rejectHunk(0);
    refused.rejectHunk(0);
    expect(refused.text).toBe(original);
    expect(refused.decided()).toBe('reject');
    expect(refused.rejectionReason()).toContain('every hunk');
  });

  it('a new file whose only hunk is rejected is rejected (nothing is created)', () => {
    const review = new ProposalReview({ displayPath: 'new.txt', before: null, after: 'x\n' });
    review.rejectHunk(0);
    expect(review.decided()).toBe('reject');
  });

  it('the person’s own edits are written and shown to the model as a diff', () => {
    const review = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    review.setText(proposal.replace('gamma\n', 'gamma // kept by hand\n'));
    const accepted = review.accept();
    expect(accepted.content).toBe(proposal.replace('gamma\n', 'gamma // kept by hand\n'));
    expect(accepted.note).toContain('edited your proposal');
    expect(accepted.note).toContain('-gamma');
    expect(accepted.note).toContain('+gamma // kept by hand');
  });

  it('keeps the BOM and CRLF line endings of the proposal when the editor hands back LF without BOM', () => {
    const before = '\uFEFFone\r\ntwo\r\n';
    const after = '\uFEFFone\r\nTWO\r\n';
    const review = new ProposalReview({ displayPath: 'w.cs', before, after });
    expect(review.text).toBe('one\r\nTWO\r\n');
    review.setText('one\nTWO\nthree\n');
    expect(review.accept().content).toBe('\uFEFFone\r\nTWO\r\nthree\r\n');
  });

  it('hunk decisions survive an unrelated edit elsewhere', () => {
    const review = new ProposalReview({ displayPath: 'a.txt', before: original, after: proposal });
    review.acceptHunk(0);
    review.setText(review.text.replace('kappa\n', 'kappa\nlambda\n'));
    expect(review.isAccepted(review.hunks()[0]!)).toBe(true);
    expect(review.decided()).toBeUndefined();
  });
});
