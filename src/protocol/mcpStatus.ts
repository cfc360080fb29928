import * as z from 'zod';

/** Most resources the @-menu is given; a server with more is read through the model's resource tool. */
export const MAX_VIEW_RESOURCES = 1000;

/** One MCP server as the view's status list shows it. */
export const mcpServerViewSchema = z.strictObject({
  name: z.string().min(1).max(200),
  state: z.enum(['starting', 'ready', 'failed', 'disabled', 'signin']),
  /** The state in words: "ready, 3 tools", "failed: …" (with the last stderr line). */
  text: z.string().max(2000),
});

/** A server's prompt, usable as the slash command `/mcp.<server>.<prompt>`. */
export const mcpPromptViewSchema = z.strictObject({
  command: z.string().min(1).max(300),
  server: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  arguments: z.array(z.strictObject({ name: z.string().min(1).max(200), required: z.boolean() })).max(50),
});

/** A resource a ready server lists, offered in the composer's @-menu as `@server:uri`. */
export const mcpResourceViewSchema = z.strictObject({
  server: z.string().min(1).max(200),
  uri: z.string().min(1).max(2048),
  name: z.string().max(200),
  description: z.string().max(300).optional(),
});

export const mcpStatusSchema = z.strictObject({
  servers: z.array(mcpServerViewSchema).max(200),
  prompts: z.array(mcpPromptViewSchema).max(500),
  resources: z.array(mcpResourceViewSchema).max(MAX_VIEW_RESOURCES),
});

export type McpStatusView = z.infer<typeof mcpStatusSchema>;
export type McpPromptView = z.infer<typeof mcpPromptViewSchema>;
export type McpResourceView = z.infer<typeof mcpResourceViewSchema>;
