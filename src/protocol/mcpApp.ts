import * as z from 'zod';

/**
 * MCP Apps on a tool card: the `ui://` resource of the server whose tool ran. The card asks the
 * host for the page (`mcpApp.open`) and passes the app's `tools/call` requests on (`mcpApp.callTool`),
 * which run through the same approval as the model's calls.
 */

/** Past this an app's page is not shown (the host refuses it first). */
export const MAX_APP_PAGE_CHARS = 5_100_000;

export const toolAppSchema = z.strictObject({
  server: z.string().min(1).max(200),
  uri: z.string().min(1).max(2000),
});

const toolCallId = z.string().min(1).max(200);
const domains = z.array(z.string().max(300)).max(50);

export const appCspSchema = z.strictObject({
  connectDomains: domains,
  resourceDomains: domains,
  frameDomains: domains,
  baseUriDomains: domains,
});

export const mcpAppMethods = {
  /** The app of a tool call shown in this conversation: its page (the policy in it), the call's input, tool and result. */
  'mcpApp.open': {
    params: z.strictObject({ toolCallId }),
    result: z.strictObject({
      html: z.string().max(MAX_APP_PAGE_CHARS),
      csp: appCspSchema,
      tool: z.strictObject({ name: z.string().min(1), title: z.string().optional(), description: z.string().optional(), inputSchema: z.record(z.string(), z.json()) }),
      input: z.record(z.string(), z.json()),
      /** The server's `CallToolResult`, as it sent it. */
      result: z.record(z.string(), z.json()),
    }),
  },
  /** The app calls a tool of its own server: the person's approval as for the model; the server's `CallToolResult` back. */
  'mcpApp.callTool': {
    params: z.strictObject({ toolCallId, name: z.string().min(1).max(200), arguments: z.record(z.string(), z.json()) }),
    result: z.record(z.string(), z.json()),
  },
} as const;

export type ToolApp = z.infer<typeof toolAppSchema>;
export type AppCspView = z.infer<typeof appCspSchema>;
