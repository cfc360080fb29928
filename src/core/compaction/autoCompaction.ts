import type { ModelMessage } from 'ai';
import { errorMessage } from '../errors';
import { overflowSize } from '../history/contextOverflow';
import type { ResolvedModel } from '../model/modelRegistry';
import type { CompactionEvent } from '../projectTypes';
import type { Session } from '../session/session';
import { newMessageId } from '../session/sessionIds';
import { compactSession, prepareCompaction } from './compactor';
import type { CompactionOutcome, CompactionReason } from './compactor';
import { estimateTokens } from './tokenEstimate';

/** Recent context kept as it is by an automatic compaction, as a share of the compaction threshold. */
const keepShare = 0.25;
/** After a context-too-long answer, compaction is used only when it would summarize at least this much. */
const minOverflowTokens = 1_000;
const minOverflowShare = 0.2;

export interface AutoCompactionOptions {
  session: Session;
  model: ResolvedModel;
  /** `autoCompact` and `compactAt` from the config. */
  enabled: boolean;
  compactAt: number;
  /** Tokens every request carries besides the messages (system prompt, tool schemas). */
  fixedTokens: number;
  signal: AbortSignal;
  emit(event: CompactionEvent): void;
}

/**
 * The Loop's compaction hooks for one run: before a request that would pass `compactAt` of the
 * model's window, and after the provider says a request does not fit. A failed summary is
 * reported and the run goes on with what it had (the log is unchanged).
 */
export function autoCompaction(opts: AutoCompactionOptions): {
  beforeTurn(messages: ModelMessage[], info: { contextTokens: number }): Promise<ModelMessage[] | undefined>;
  onOverflow(messages: ModelMessage[], error: unknown): Promise<ModelMessage[] | undefined>;
} {
  const window = opts.model.contextWindow;
  const threshold = window ? Math.floor(window * opts.compactAt) : undefined;
  let failed = false;
  const run = async (reason: CompactionReason, keepTokens: number): Promise<ModelMessage[] | undefined> => {
    const outcome = await runCompaction(opts.session, opts.model, { reason, keepTokens, signal: opts.signal, emit: opts.emit });
    if (outcome === 'nothing') return undefined;
    if (outcome === 'failed') {
      // One failed summary per run is enough: the next requests would fail the same way.
      failed = true;
      return undefined;
    }
    return opts.session.history();
  };
  return {
    async beforeTurn(messages, info) {
      if (!opts.enabled || !threshold || failed || opts.session.readOnly) return undefined;
      const estimate = Math.max(estimateTokens(messages) + opts.fixedTokens, info.contextTokens);
      if (estimate < threshold) return undefined;
      return run('auto', Math.floor(threshold * keepShare));
    },
    async onOverflow(messages, error) {
      if (!opts.enabled || failed || opts.session.readOnly) return undefined;
      const total = estimateTokens(messages) + opts.fixedTokens;
      const limit = window ?? overflowSize(error)?.limit ?? total;
      const keepTokens = Math.floor(limit * opts.compactAt * keepShare);
      const prepared = prepareCompaction(opts.session, { keepTokens, ...(window ? { contextWindow: window } : {}) });
      if (!prepared || prepared.plan.compactedTokens < Math.max(minOverflowTokens, total * minOverflowShare)) return undefined;
      return run('overflow', keepTokens);
    },
  };
}

/**
 * One compaction with its events. 'nothing': too little to summarize (no events; the caller
 * says so if the person asked); 'failed': the summary could not be made (a `failed` event says why).
 */
export async function runCompaction(
  session: Session,
  model: ResolvedModel,
  opts: { reason: CompactionReason; keepTokens: number; signal?: AbortSignal; emit(event: CompactionEvent): void },
): Promise<CompactionOutcome | 'nothing' | 'failed'> {
  if (!prepareCompaction(session, { keepTokens: opts.keepTokens })) return 'nothing';
  // The record's id is known from the start, so a view's divider keeps it when the summary lands.
  const recordId = newMessageId();
  opts.emit({ type: 'compaction', phase: 'start', reason: opts.reason, id: recordId });
  try {
    const outcome = await compactSession(session, {
      id: recordId,
      reason: opts.reason,
      model: model.model,
      modelId: model.id,
      ...(model.price ? { price: model.price } : {}),
      keepTokens: opts.keepTokens,
      ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!outcome) return 'nothing';
    const { id, summary, compactedMessages, tokensBefore, tokensAfter } = outcome;
    opts.emit({ type: 'compaction', phase: 'done', reason: opts.reason, id, at: session.writtenAt(id), summary, compactedMessages, tokensBefore, tokensAfter });
    return outcome;
  } catch (err) {
    opts.emit({ type: 'compaction', phase: 'failed', reason: opts.reason, error: errorMessage(err) });
    return 'failed';
  }
}
