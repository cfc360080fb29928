import * as z from 'zod';
import { messageUsageSchema } from './messageUsage';

/** Most of one text an MCP request card carries (a message, the system prompt); the rest is cut. */
export const MAX_MCP_CARD_TEXT = 20_000;

const fieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** One field of a server's form (elicitation), as the card asks it. */
export const mcpFormFieldSchema = z.strictObject({
  name: z.string().min(1).max(10_000),
  label: z.string().max(500),
  description: z.string().max(2000).optional(),
  kind: z.enum(['text', 'number', 'integer', 'boolean', 'choice', 'choices']),
  required: z.boolean(),
  /** For choice and choices: the values and what to call them. */
  options: z.array(z.strictObject({ value: z.string().max(500), label: z.string().max(500) })).max(500).optional(),
  default: fieldValueSchema.optional(),
  /** Text: its least and most characters; numbers: the least and most value. */
  min: z.number().optional(),
  max: z.number().optional(),
  /** Text in a given form. */
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
});

/** What a server asks: a form to fill in, a page to open, or a request to run on the person's model. */
export const mcpRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('form'), message: z.string().max(MAX_MCP_CARD_TEXT), fields: z.array(mcpFormFieldSchema).max(100) }),
  z.strictObject({ kind: z.literal('url'), message: z.string().max(MAX_MCP_CARD_TEXT), url: z.string().min(1).max(4096) }),
  z.strictObject({
    kind: z.literal('sampling'),
    /** The person's model the request would run on. */
    modelId: z.string().max(500),
    systemPrompt: z.string().max(MAX_MCP_CARD_TEXT).optional(),
    messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), text: z.string().max(MAX_MCP_CARD_TEXT) })).max(200),
    /** The last user message's text, which the person may edit before it runs; absent when it has none. */
    lastUserText: z.string().max(MAX_MCP_CARD_TEXT).optional(),
    maxTokens: z.number().int().nonnegative(),
  }),
]);

/**
 * open: waiting for the person; accepted / declined / cancelled: answered so (a sampling request
 * accepted has run); running: an approved sampling request runs on the model; failed: it could
 * not run; expired: the server withdrew it or it waited too long, before anyone answered.
 */
export const mcpRequestStateSchema = z.enum(['open', 'accepted', 'declined', 'cancelled', 'running', 'failed', 'expired']);

/** A card of an MCP server's request in the conversation, in the message whose run it came during. */
export const mcpRequestPartSchema = z.strictObject({
  type: z.literal('mcpRequest'),
  /** The host's id of the request (for `mcp.answer`). */
  requestId: z.string().min(1).max(200),
  server: z.string().max(200),
  request: mcpRequestSchema,
  state: mcpRequestStateSchema,
  /** Why a sampling request failed. */
  error: z.string().max(2000).optional(),
  /** What a sampling request used of the person's model (it counts in the conversation's usage). */
  usage: messageUsageSchema.optional(),
});

/** The person's answer to a card: accept (a form's values, a sampling request's edited last message), decline, or cancel. */
export const mcpAnswerSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('accept'), content: z.record(z.string(), fieldValueSchema).optional(), text: z.string().max(MAX_MCP_CARD_TEXT).optional() }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);

export type McpFormField = z.infer<typeof mcpFormFieldSchema>;
export type McpFieldValue = z.infer<typeof fieldValueSchema>;
export type McpRequest = z.infer<typeof mcpRequestSchema>;
export type McpRequestState = z.infer<typeof mcpRequestStateSchema>;
export type McpRequestPart = z.infer<typeof mcpRequestPartSchema>;
export type McpAnswer = z.infer<typeof mcpAnswerSchema>;
