import type { z } from 'zod';

/** One request method: what the caller sends and what the handler answers. */
export interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
}

/**
 * One end of the bus: the methods it answers and the events it emits. A bus is typed by
 * its local side (handle/emit) and its remote side (request/on).
 */
export interface Side {
  methods: Record<string, MethodSpec>;
  events: Record<string, z.ZodType>;
}

export type MethodOf<S extends Side> = keyof S['methods'] & string;
export type EventOf<S extends Side> = keyof S['events'] & string;

/** What a caller passes (schema input) and what a handler receives (schema output). */
export type ParamsIn<S extends Side, M extends MethodOf<S>> = z.input<S['methods'][M]['params']>;
export type ParamsOut<S extends Side, M extends MethodOf<S>> = z.output<S['methods'][M]['params']>;
export type ResultIn<S extends Side, M extends MethodOf<S>> = z.input<S['methods'][M]['result']>;
export type ResultOut<S extends Side, M extends MethodOf<S>> = z.output<S['methods'][M]['result']>;
export type EventIn<S extends Side, E extends EventOf<S>> = z.input<S['events'][E]>;
export type EventOut<S extends Side, E extends EventOf<S>> = z.output<S['events'][E]>;
