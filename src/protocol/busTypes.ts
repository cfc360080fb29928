import type { EventOf, EventOut, MethodOf, ParamsOut, ResultIn, Side } from './side';

export interface RequestOptions {
  /** Aborting sends `cancel` to the remote handler and rejects with an AbortError. */
  signal?: AbortSignal;
  /** No default: an approval may legitimately wait for the person as long as it takes. */
  timeoutMs?: number;
}

export interface HandlerContext {
  /** Fires when the caller cancels, times out, or the bus is disposed. */
  signal: AbortSignal;
}

export type Handler<S extends Side, M extends MethodOf<S>> = (
  params: ParamsOut<S, M>,
  context: HandlerContext,
) => ResultIn<S, M> | Promise<ResultIn<S, M>>;

export type Listener<S extends Side, E extends EventOf<S>> = (data: EventOut<S, E>) => void;
