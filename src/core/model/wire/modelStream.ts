import type { LanguageModel, ModelMessage } from 'ai';
import { convertToLanguageModelPrompt, resolveLanguageModel, standardizePrompt } from 'ai/internal';
import { LeanLanguageModel } from './leanLanguageModel';
import type { CallOptions, FunctionTool, LanguageModelSpec, StreamPart } from './modelSpec';

export interface ModelCall {
  system: string;
  messages: ModelMessage[];
  tools?: FunctionTool[];
  maxOutputTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** The conversation's prompt-cache key, offered to the model as `providerOptions.openai.promptCacheKey`. */
  cacheKey?: string;
  /** Options for the providers that read them (the reasoning the person chose, see reasoning.ts). */
  providerOptions?: CallOptions['providerOptions'];
}

/** The model as the v4 specification (older specification versions are adapted by the SDK). */
export function specModel(model: LanguageModel): LanguageModelSpec {
  return resolveLanguageModel(model) as LanguageModelSpec;
}

/**
 * The call options a model's `doStream` takes: the messages in the provider-facing prompt
 * form (the AI SDK's own conversion, so every model source gets what `streamText` gave it).
 */
export async function callOptions(model: LanguageModelSpec, call: ModelCall): Promise<CallOptions> {
  const prompt = await convertToLanguageModelPrompt({
    prompt: await standardizePrompt({ instructions: call.system, messages: call.messages }),
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: call.signal,
    provider: model.provider.split('.')[0],
  });
  const options: CallOptions = { prompt, abortSignal: call.signal };
  if (call.tools && call.tools.length > 0) {
    options.tools = call.tools;
    options.toolChoice = { type: 'auto' };
  }
  if (call.maxOutputTokens !== undefined) options.maxOutputTokens = call.maxOutputTokens;
  if (call.temperature !== undefined) options.temperature = call.temperature;
  if (call.providerOptions) options.providerOptions = { ...call.providerOptions };
  // The AI SDK's OpenAI providers read it under this name too; other providers ignore it.
  if (call.cacheKey !== undefined) options.providerOptions = { ...options.providerOptions, openai: { ...options.providerOptions?.openai, promptCacheKey: call.cacheKey } };
  return options;
}

/** Settles like `promise`, or rejects with the abort reason as soon as `signal` aborts. */
function abortable<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(promise);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Streams one model call into `onPart`, resolving when the model finished and rejecting
 * with the error that ended it (an error part included) or, once the call's signal aborts,
 * with the abort reason, whether or not the source itself stops. Keel's lean wires hand
 * their parts over directly; every other source (vscode.lm, plugins' providers, the SDK's
 * providers) is read from its `doStream` stream.
 */
export async function streamModel(model: LanguageModelSpec, options: CallOptions, onPart: (part: StreamPart) => void): Promise<void> {
  const signal = options.abortSignal;
  if (model instanceof LeanLanguageModel) {
    // fetch and the body reader end on the signal themselves.
    const { pump } = await model.open(options);
    await pump(onPart);
    return;
  }
  const { stream } = await abortable(model.doStream(options), signal);
  const reader = stream.getReader();
  // A source that ignores the signal (or ends quietly on it) must not hold the run.
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) return;
      if (value.type === 'error') throw value.error;
      onPart(value);
    }
  } catch (err) {
    // Stop the source (and its request) before reporting what ended it.
    await reader.cancel(err).catch(() => undefined);
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
