import { APICallError } from 'ai';
import type { RetryPolicy } from './loopTypes';
import { causeChain } from '../causeChain';

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };

const retryableStatus = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;
const networkCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

export function statusOf(err: unknown): number | undefined {
  for (const e of causeChain(err)) {
    if (APICallError.isInstance(e) && typeof e.statusCode === 'number') return e.statusCode;
  }
  return undefined;
}

/**
 * A model turn that said nothing: no text and no tool call. Nothing can be done with it, so it
 * is a provider fault, retried like a dropped stream and, if it persists, a failed run.
 */
export class EmptyAnswerError extends Error {
  constructor() {
    super('The model sent an empty answer (no text and no tool call). The endpoint may be overloaded or the model may not support this request; try again or choose another model.');
    this.name = 'EmptyAnswerError';
  }
}

/** Whether a finished turn is empty; a reasoning-only turn is too, since the person gets no answer. */
export function isEmptyAnswer(turn: { text: string; calls: readonly unknown[] }): boolean {
  return turn.text.trim() === '' && turn.calls.length === 0;
}

export function isRetryable(err: unknown): boolean {
  if (err instanceof EmptyAnswerError) return true;
  const status = statusOf(err);
  // A 2xx whose body broke off mid-stream is a network failure, judged by its cause below.
  if (status !== undefined && status >= 300) return retryableStatus(status);
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && networkCodes.has(code)) return true;
    const msg = e instanceof Error ? e.message : '';
    if (/fetch failed|socket hang up|terminated|network|other side closed|premature close/i.test(msg)) return true;
  }
  return false;
}

/** Delay the server asked for, in ms: `retry-after-ms`, or `retry-after` as seconds or a date. */
export function serverDelayMs(err: unknown, now = Date.now()): number | undefined {
  for (const e of causeChain(err)) {
    if (!APICallError.isInstance(e) || !e.responseHeaders) continue;
    const h = Object.fromEntries(Object.entries(e.responseHeaders).map(([k, v]) => [k.toLowerCase(), v]));
    const ms = Number(h['retry-after-ms']);
    if (Number.isFinite(ms) && ms >= 0) return ms;
    const ra = h['retry-after'];
    if (ra === undefined) continue;
    const secs = Number(ra);
    if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Exponential backoff with jitter, overridden by what the server asked for (capped). */
export function retryDelayMs(err: unknown, attempt: number, policy: RetryPolicy): number {
  const server = serverDelayMs(err);
  if (server !== undefined) return Math.min(server, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = exp * 0.2 * Math.random();
  return Math.min(exp + jitter, policy.maxDelayMs);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
