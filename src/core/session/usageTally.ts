import { addUsage } from '../model/tokenUsage';
import type { TokenUsage } from '../model/tokenUsage';

/** Tokens over a session or one message, and what they cost where the price was known. */
export interface UsageTotals extends TokenUsage {
  /** US dollars, present only while every call's model had a price (an unknown price is never guessed). */
  costUsd?: number;
}

/**
 * A running sum of model calls: tokens always, the cost only while every call had one (one
 * call without a price makes the whole sum's cost unknown, never a partial figure).
 */
export class UsageTally {
  readonly totals: UsageTotals = { inputTokens: 0, outputTokens: 0 };
  private unpriced = false;

  add(call: UsageTotals): void {
    addUsage(this.totals, call);
    if (call.costUsd === undefined) {
      this.unpriced = true;
      delete this.totals.costUsd;
    } else if (!this.unpriced) this.totals.costUsd = (this.totals.costUsd ?? 0) + call.costUsd;
  }
}
