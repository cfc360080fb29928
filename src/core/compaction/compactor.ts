import type { LanguageModel } from 'ai';
import { costOf } from '../model/modelCatalogue';
import type { ModelPrice } from '../config/configSchema';
import { modelText } from '../model/modelText';
import { errorMessage } from '../errors';
import { isContextOverflow } from '../history/contextOverflow';
import type { Session } from '../session/session';
import { planCompaction } from './compactionPlan';
import type { CompactionPlan } from './compactionPlan';
import { buildTranscript, summaryRequestText, summarySystemPrompt } from './summaryPrompt';
import { charsPerToken, estimateTokens, textTokens } from './tokenEstimate';

/** Why a compaction ran: the person asked (/compact), the request neared the window, or the provider said it did not fit. */
export type CompactionReason = 'manual' | 'auto' | 'overflow';

export interface CompactionOutcome {
  id: string;
  summary: string;
  replacesUpTo: string;
  /** Messages the summary stands for (the earlier summary's included as one). */
  compactedMessages: number;
  /** Estimated tokens of the history before and after. */
  tokensBefore: number;
  tokensAfter: number;
}

/** The summarization request failed: nothing was written; the message says so. */
export class CompactionError extends Error {
  constructor(readonly reason: string, cause: unknown) {
    super(
      `Keel could not compact the conversation: the summarization request failed (${reason}). ` +
        'Nothing was changed: every message is still in the session.',
      { cause },
    );
    this.name = 'CompactionError';
  }
}

/** Without a known window, the summarizer gets at most this much transcript (about 100k tokens). */
const defaultTranscriptChars = 400_000;
const minTranscriptChars = 8_000;

export interface PreparedCompaction {
  plan: CompactionPlan;
  transcript: string;
  compactedMessages: number;
  tokensBefore: number;
  budgetChars: number;
}

/**
 * The part of a compaction that needs no model: where to cut and the transcript to summarize.
 * `keepTokens` recent tokens stay as they are (0 summarizes everything). Undefined: nothing to compact.
 */
export function prepareCompaction(session: Session, opts: { keepTokens: number; contextWindow?: number; budgetChars?: number }): PreparedCompaction | undefined {
  const { summary, messages } = session.uncompacted();
  const plan = planCompaction({ messages, keepTokens: opts.keepTokens });
  if (!plan) return undefined;
  const budgetChars =
    opts.budgetChars ??
    (opts.contextWindow
      ? Math.max(minTranscriptChars, Math.floor((opts.contextWindow * 0.6 - textTokens(summarySystemPrompt)) * charsPerToken))
      : defaultTranscriptChars);
  const items = messages.slice(0, plan.lastIndex + 1).map((m) => (m.interruption ? { message: m.message, interruption: m.interruption.note } : { message: m.message }));
  const transcript = buildTranscript(items, summary, budgetChars);
  const tokensBefore = estimateTokens(messages.map((m) => m.message)) + (summary === undefined ? 0 : textTokens(summary));
  return { plan, transcript, compactedMessages: plan.lastIndex + 1 + (summary === undefined ? 0 : 1), tokensBefore, budgetChars };
}

/** Records the summary; returns the outcome the caller reports. */
export function applyCompaction(session: Session, prepared: PreparedCompaction, summary: string, record: { id?: string; reason?: CompactionReason } = {}): CompactionOutcome {
  const id = session.appendCompaction(summary, prepared.plan.replacesUpTo, { messages: prepared.compactedMessages, ...record });
  return {
    id,
    summary,
    replacesUpTo: prepared.plan.replacesUpTo,
    compactedMessages: prepared.compactedMessages,
    tokensBefore: prepared.tokensBefore,
    tokensAfter: estimateTokens(session.history()),
  };
}

export interface CompactOptions {
  model: LanguageModel;
  /** Recorded with the summary request's token usage (it is paid for like any other). */
  modelId?: string;
  /** The model's price, so the summary's cost is recorded with its tokens. */
  price?: ModelPrice;
  contextWindow?: number;
  keepTokens: number;
  signal?: AbortSignal;
  /** The record's id (announced before the summary is written) and why it ran. */
  id?: string;
  reason?: CompactionReason;
}

/**
 * Summarizes the older part of the session with the model and records the summary. If the
 * summarizer says its own request is too long, the transcript is halved (twice at most).
 * Throws CompactionError when the request fails; the log is then as it was.
 */
export async function compactSession(session: Session, opts: CompactOptions): Promise<CompactionOutcome | undefined> {
  let prepared = prepareCompaction(session, { keepTokens: opts.keepTokens, contextWindow: opts.contextWindow });
  if (!prepared) return undefined;
  for (let attempt = 1; ; attempt++) {
    let text: string;
    let usage: { inputTokens: number; outputTokens: number };
    try {
      ({ text, usage } = await summarize(opts, prepared.transcript));
    } catch (err) {
      if (opts.signal?.aborted) throw new CompactionError('it was cancelled', err);
      if (attempt < 3 && isContextOverflow(err)) {
        const smaller = prepareCompaction(session, { keepTokens: opts.keepTokens, budgetChars: Math.max(minTranscriptChars, Math.floor(prepared.budgetChars / 2)) });
        if (smaller && smaller.budgetChars < prepared.budgetChars) {
          prepared = smaller;
          continue;
        }
      }
      throw new CompactionError(errorMessage(err), err);
    }
    if (text === '') throw new CompactionError('the model returned an empty summary', undefined);
    const outcome = applyCompaction(session, prepared, text, { ...(opts.id ? { id: opts.id } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
    if (usage.inputTokens || usage.outputTokens) {
      session.appendUsage({ ...usage, messageId: outcome.id, ...(opts.modelId ? { model: opts.modelId } : {}), ...(opts.price ? { costUsd: costOf(usage, opts.price) } : {}) });
    }
    return outcome;
  }
}

/** The summarization request, through the same streaming call the agent loop uses (one code path, a smaller bundle). */
async function summarize(opts: CompactOptions, transcript: string): Promise<{ text: string; usage: { inputTokens: number; outputTokens: number } }> {
  const { text, usage } = await modelText(
    opts.model,
    { system: summarySystemPrompt, messages: [{ role: 'user', content: summaryRequestText(transcript) }], ...(opts.signal ? { signal: opts.signal } : {}) },
    2,
  );
  return { text: text.trim(), usage };
}
