import { splitBom } from '../tools/text/lineEndings';
import { applyHunks } from './applyHunks';
import { matchLineEndings } from './fileFormat';
import { diffLines } from './lineDiff';
import type { Hunk, LineDiff } from './lineDiff';
import { formatHunk, formatUnified } from './unifiedDiff';

export interface ProposalInput {
  displayPath: string;
  /** The file as it is, null when the change creates it. */
  before: string | null;
  /** The proposed content. */
  after: string;
}

/** What accepting the reviewed proposal writes, and what the model is told about the person's part in it. */
export interface AcceptedProposal {
  content: string;
  /** Set when the person rejected hunks or edited the proposal. */
  note?: string;
}

/**
 * The person's review of one proposed file change, hunk by hunk, with their own edits.
 * Texts are handled without the BOM (editors hide it) and the result gets the proposal's
 * BOM and line endings back. The proposal text shown to the person is the single truth:
 * rejecting a hunk takes it out of that text, so what is applied is always what is shown
 * (the original with the accepted hunks, plus whatever the person typed).
 */
export class ProposalReview {
  readonly displayPath: string;
  /** The original without BOM ('' for a new file). */
  readonly original: string;
  /** The model's proposal without BOM. */
  readonly proposal: string;
  private readonly bom: string;
  private current: string;
  private cached: LineDiff | undefined;
  private readonly accepted = new Set<string>();
  private readonly rejected: Hunk[] = [];
  private readonly proposalDiff: LineDiff;

  constructor(input: ProposalInput) {
    this.displayPath = input.displayPath;
    this.original = splitBom(input.before ?? '').body;
    const after = splitBom(input.after);
    this.bom = after.bom;
    this.proposal = after.body;
    this.current = this.proposal;
    this.proposalDiff = diffLines(this.original, this.proposal);
  }

  /** The proposal as it stands now (BOM-less), as the proposal editor shows it. */
  get text(): string {
    return this.current;
  }

  /** The person changed the proposal in the editor. */
  setText(text: string): void {
    const next = matchLineEndings(splitBom(text).body, this.proposal);
    if (next === this.current) return;
    this.current = next;
    this.cached = undefined;
  }

  /** Differences between the original and the proposal as it stands, in order. */
  hunks(): readonly Hunk[] {
    this.cached ??= diffLines(this.original, this.current);
    return this.cached.hunks;
  }

  isAccepted(hunk: Hunk): boolean {
    return this.accepted.has(hunkKey(hunk));
  }

  acceptHunk(index: number): void {
    this.accepted.add(hunkKey(this.hunkAt(index)));
  }

  /** Takes one hunk out of the proposal; returns the new proposal text (BOM-less) to show. */
  rejectHunk(index: number): string {
    const hunks = this.hunks();
    const target = this.hunkAt(index);
    this.rejected.push(target);
    this.accepted.delete(hunkKey(target));
    this.setText(applyHunks(this.original, hunks, (_h, i) => i !== index));
    return this.current;
  }

  /**
   * 'accept' when every remaining hunk was accepted, 'reject' when none remains because the
   * person rejected them all; undefined while some hunk waits for a decision.
   */
  decided(): 'accept' | 'reject' | undefined {
    const hunks = this.hunks();
    if (hunks.length === 0) return this.rejected.length > 0 ? 'reject' : undefined;
    return hunks.every((h) => this.isAccepted(h)) ? 'accept' : undefined;
  }

  /** Why the change counts as rejected when the person rejected every hunk. */
  rejectionReason(): string {
    return `the person rejected every hunk of the change to ${this.displayPath}`;
  }

  /** Accepting now: the content to write and the note for the model. */
  accept(): AcceptedProposal {
    const content = this.bom + this.current;
    const notes: string[] = [];
    const rejectedProposalHunks = new Set<number>();
    if (this.rejected.length > 0) {
      const keys = new Set(this.rejected.map(hunkKey));
      this.proposalDiff.hunks.forEach((h, i) => {
        if (keys.has(hunkKey(h))) rejectedProposalHunks.add(i);
      });
      const total = this.proposalDiff.hunks.length;
      const shown = this.rejected.map((h) => formatHunk(this.proposalDiff, h)).join('\n');
      notes.push(
        `The person reviewed your change to ${this.displayPath} hunk by hunk and rejected ${this.rejected.length} of its ${total} hunk${total === 1 ? '' : 's'}; ` +
          `those were not written, the rest was. Rejected hunks (original → your proposal):\n\`\`\`diff\n${shown}\n\`\`\``,
      );
    }
    const expected = applyHunks(this.original, this.proposalDiff.hunks, (_h, i) => !rejectedProposalHunks.has(i));
    if (expected !== this.current) {
      const edits = formatUnified(diffLines(expected, this.current), { fromLabel: 'your proposal', toLabel: 'what was written' });
      notes.push(
        `The person edited your proposal for ${this.displayPath} before applying it. What was written differs from your proposal` +
          `${this.rejected.length ? ' (without the rejected hunks)' : ''} like this:\n\`\`\`diff\n${edits}\`\`\`\nKeep their edits; do not redo what they undid.`,
      );
    }
    return notes.length ? { content, note: notes.join('\n\n') } : { content };
  }

  private hunkAt(index: number): Hunk {
    const hunk = this.hunks()[index];
    if (!hunk) throw new RangeError(`the proposal for ${this.displayPath} has no hunk ${index + 1}`);
    return hunk;
  }
}

/** Identifies a hunk across re-diffs: its place in the original and its content. */
function hunkKey(hunk: Hunk): string {
  return `${hunk.beforeStart}:${hunk.beforeCount}:${hunk.removed.join('')}\u0000${hunk.added.join('')}`;
}
