import type { LanguageModel } from 'ai';
import { defaultRetryPolicy, isRetryable, retryDelayMs, sleep } from '../loop/retry';
import { callOptions, specModel, streamModel } from './wire/modelStream';
import type { ModelCall } from './wire/modelStream';

export interface ModelText {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * One model answer as text, for the jobs beside the loop (summaries, titles, commit messages):
 * the same streaming path as the loop, with `retries` more attempts on failures worth retrying.
 * `onDelta` hears the text as it arrives (use it without retries: a retry starts the text again).
 */
export async function modelText(model: LanguageModel, call: ModelCall, retries = 0, onDelta?: (text: string) => void): Promise<ModelText> {
  const spec = specModel(model);
  const options = await callOptions(spec, call);
  for (let attempt = 1; ; attempt++) {
    const out: ModelText = { text: '', usage: { inputTokens: 0, outputTokens: 0 } };
    try {
      await streamModel(spec, options, (part) => {
        if (part.type === 'text-delta') {
          out.text += part.delta;
          onDelta?.(part.delta);
        }
        else if (part.type === 'finish') {
          out.usage.inputTokens += part.usage.inputTokens.total ?? 0;
          out.usage.outputTokens += part.usage.outputTokens.total ?? 0;
        }
      });
      return out;
    } catch (err) {
      if (call.signal?.aborted || attempt > retries || !isRetryable(err)) throw err;
      await sleep(retryDelayMs(err, attempt, defaultRetryPolicy), call.signal ?? new AbortController().signal);
    }
  }
}
