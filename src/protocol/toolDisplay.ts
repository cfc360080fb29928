import * as z from 'zod';

/**
 * How a tool call's card looks, as the tool described it (core's ToolPresentation, field for
 * field). The page draws `details` by its `kind`; an unknown tool's arguments come as key/value.
 */

// Core caps what it puts here (the summary, key/value rows, todo items); a command is as long as the model wrote it.
const text = z.string();

export const todoDisplayItemSchema = z.strictObject({
  content: text,
  status: z.enum(['pending', 'in_progress', 'completed']),
});

export const toolDetailsSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('fileChange'), path: text, range: text.optional() }),
  z.strictObject({ kind: z.literal('command'), command: text, cwd: text.optional(), description: text.optional(), background: z.boolean().optional() }),
  z.strictObject({ kind: z.literal('search'), pattern: text, scope: text.optional(), matches: z.number().int().nonnegative().optional() }),
  z.strictObject({ kind: z.literal('fetchedPage'), url: text }),
  z.strictObject({ kind: z.literal('todoList'), items: z.array(todoDisplayItemSchema).max(500) }),
  z.strictObject({ kind: z.literal('keyValue'), entries: z.array(z.strictObject({ key: text, value: text })).max(50) }),
]);

export const toolDisplaySchema = z.strictObject({
  /** Where the card names the tool. */
  title: text,
  /** One line for the header: the command, the path, the URL. */
  summary: text,
  /** A codicon id. */
  icon: z.string().regex(/^[a-z0-9-]{1,60}$/),
  details: toolDetailsSchema,
});

export type ToolDetailsDisplay = z.infer<typeof toolDetailsSchema>;
export type ToolDisplay = z.infer<typeof toolDisplaySchema>;
/** The details of one kind, for the renderer of that kind. */
export type ToolDetailsOf<K extends ToolDetailsDisplay['kind']> = Extract<ToolDetailsDisplay, { kind: K }>;
