import * as z from 'zod';

/**
 * The four frame envelopes on the wire. Payloads (params, result, event data) are
 * `unknown` here and validated afterwards against the method's or event's own schema.
 */

const frameId = z.string().min(1).max(200);
const version = z.number().int();

export const requestFrameSchema = z.strictObject({
  v: version,
  kind: z.literal('request'),
  id: frameId,
  method: z.string().min(1).max(200),
  params: z.unknown(),
});

export const wireErrorSchema = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
  data: z.unknown().optional(),
});

export const responseFrameSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    v: version,
    kind: z.literal('response'),
    id: frameId,
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.strictObject({
    v: version,
    kind: z.literal('response'),
    id: frameId,
    ok: z.literal(false),
    error: wireErrorSchema,
  }),
]);

export const eventFrameSchema = z.strictObject({
  v: version,
  kind: z.literal('event'),
  name: z.string().min(1).max(200),
  data: z.unknown(),
});

export const cancelFrameSchema = z.strictObject({
  v: version,
  kind: z.literal('cancel'),
  id: frameId,
});

export type RequestFrame = z.infer<typeof requestFrameSchema>;
export type ResponseFrame = z.infer<typeof responseFrameSchema>;
export type EventFrame = z.infer<typeof eventFrameSchema>;
export type CancelFrame = z.infer<typeof cancelFrameSchema>;
export type WireError = z.infer<typeof wireErrorSchema>;
export type Frame = RequestFrame | ResponseFrame | EventFrame | CancelFrame;
export type FrameKind = Frame['kind'];

export const frameSchemas = {
  request: requestFrameSchema,
  response: responseFrameSchema,
  event: eventFrameSchema,
  cancel: cancelFrameSchema,
} as const;

/** What can be read from a raw message without trusting it: used to route and to reply. */
export interface FramePeek {
  v?: unknown;
  kind?: FrameKind;
  id?: string;
  name?: string;
}

/** Returns null for anything that is not a plain object; never throws. */
export function peekFrame(raw: unknown): FramePeek | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const record = raw as Record<string, unknown>;
  const kind = record.kind;
  const peek: FramePeek = { v: record.v };
  if (kind === 'request' || kind === 'response' || kind === 'event' || kind === 'cancel') {
    peek.kind = kind;
  }
  if (typeof record.id === 'string' && record.id.length > 0) peek.id = record.id;
  if (typeof record.name === 'string') peek.name = record.name;
  return peek;
}
